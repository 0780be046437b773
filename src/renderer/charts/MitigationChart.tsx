/**
 * Table 1: harmful and helpful flip rates before → after each mitigation, from `mitigations`,
 * drawn as dumbbells with the exact McNemar p, pooled over judges or for one judge.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo, useRef, useState } from 'react';
import { Axis } from './axes';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatP, formatPercent, percentTick } from './format';
import { JudgePicker } from './JudgePicker';
import { SwatchLegend } from './legends';
import { mitigationModel, type MitigationRow } from './models/mitigation';
import { rateDomainMax, useChartPalette } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 456;
const height = 380;
const labelWidth = 132;
const panelGap = 18;
const right = 14;
const top = 78;
const bottom = height - 64;

type Kind = 'harmful' | 'helpful';

function pair(row: MitigationRow, kind: Kind) {
  return kind === 'harmful'
    ? { before: row.harmfulBefore, after: row.harmfulAfter, p: row.harmfulP, base: row.gate }
    : { before: row.helpfulBefore, after: row.helpfulAfter, p: row.helpfulP, base: row.wrong };
}

/** The mitigations card. */
export const MitigationChart = memo(function MitigationChart(props: ResultChartProps) {
  const { table, studyId, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const [chosenJudge, setChosenJudge] = useState<string | null>(null);
  const model = useMemo(() => mitigationModel(table, chosenJudge), [table, chosenJudge]);
  const rows = model.rows;
  const filled = rows.length > 0;
  const max = rateDomainMax(
    rows.flatMap((row) => [
      row.harmfulBefore,
      row.harmfulAfter,
      row.helpfulBefore,
      row.helpfulAfter,
    ]),
  );
  const panelWidth = (width - labelWidth - right - panelGap) / 2;
  const scales = useMemo(
    () =>
      ([0, 1] as const).map((index) => {
        const x0 = labelWidth + index * (panelWidth + panelGap);
        return scaleLinear()
          .domain([0, max])
          .range([x0 + 6, x0 + panelWidth - 6]);
      }),
    [max, panelWidth],
  );
  const rowHeight = Math.min(64, (bottom - top) / Math.max(1, rows.length));
  const judgeLabel =
    model.judge === 'all' ? 'all judges and datasets pooled' : `judge ${model.judge ?? '—'}`;

  const dumbbell = (row: MitigationRow, kind: Kind, y: number) => {
    const scale = scales[kind === 'harmful' ? 0 : 1];
    if (!scale) return null;
    const { before, after, p, base } = pair(row, kind);
    const mark = `${row.mitigation}\u0000${row.after}\u0000${kind}`;
    const [x0] = scale.range();
    if (before === null || after === null)
      return (
        <text x={(x0 ?? 0) + 2} y={y + 4} fontSize={10} fill={palette.faint} fontStyle="italic">
          {kind === 'helpful' ? 'no wrong items to correct' : 'no gated items'}
        </text>
      );
    const color = kind === 'harmful' ? palette.severity : palette.leniency;
    return (
      <g
        onMouseMove={(event) =>
          show(
            event,
            mark,
            <TooltipFacts
              title={`${row.mitigation} · ${kind} flips`}
              facts={[
                ['Before (' + row.before + ')', formatPercent(before)],
                ['After (' + row.after + ')', formatPercent(after)],
                ['Exact McNemar p', formatP(p)],
                [kind === 'harmful' ? 'Gated items' : 'Wrong items', String(base)],
                ['Items paired (n)', String(row.n)],
              ]}
            />,
          )
        }
        onMouseLeave={hide}
      >
        <line
          x1={scale(before)}
          x2={scale(after)}
          y1={y}
          y2={y}
          stroke={color}
          strokeWidth={tooltip?.mark === mark ? 3 : 2}
          strokeOpacity={0.7}
        />
        <circle
          cx={scale(before)}
          cy={y}
          r={4.5}
          fill={palette.background}
          stroke={palette.before}
          strokeWidth={2}
        />
        <circle cx={scale(after)} cy={y} r={4.5} fill={color} />
        <text x={x0 ?? 0} y={y + 17} fontSize={9.5} fill={palette.muted}>
          {`${formatPercent(before)} → ${formatPercent(after)} · p ${formatP(p).startsWith('<') ? `< ${formatP(p).slice(1)}` : `= ${formatP(p)}`}`}
        </text>
      </g>
    );
  };

  return (
    <ChartFrame
      table="mitigations"
      studyId={studyId}
      label="Mitigations"
      reference="Table 1"
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No mitigated condition to compare yet"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Hover for the McNemar test; click a row for its reps."
      controls={<JudgePicker judges={model.judges} value={model.judge} onChange={setChosenJudge} />}
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="Flip rates before → after each mitigation"
        subtitle={`${judgeLabel} · n = ${rows[0]?.n ?? 0} paired items · exact McNemar p`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        {(['harmful', 'helpful'] as const).map((kind, index) => {
          const scale = scales[index];
          if (!scale) return null;
          const [x0 = 0, x1 = 0] = scale.range();
          return (
            <g key={kind}>
              <text x={x0} y={top - 14} fontSize={11} fontWeight={600} fill={palette.text}>
                {kind === 'harmful' ? 'Harmful flip rate (%)' : 'Helpful flip rate (%)'}
              </text>
              {scale.ticks(4).map((tick) => (
                <line
                  key={tick}
                  x1={scale(tick)}
                  x2={scale(tick)}
                  y1={top - 6}
                  y2={bottom}
                  stroke={palette.grid}
                />
              ))}
              <line x1={x0} x2={x1} y1={bottom} y2={bottom} stroke={palette.axis} />
              <Axis
                orient="bottom"
                scale={scale}
                offset={bottom}
                palette={palette}
                ticks={4}
                tickFormat={percentTick}
              />
            </g>
          );
        })}
        {rows.map((row, index) => {
          const y = top + index * rowHeight + rowHeight / 2 - 6;
          const open = () =>
            onOpenReps({
              title: `${row.mitigation}: ${row.before} → ${row.after}`,
              ...(row.judge !== 'all' ? { judgeId: row.judge } : {}),
              conditionKeys: [row.before, row.after, 'uncued'],
            });
          return (
            <g
              key={`${row.mitigation}\u0000${row.after}`}
              role="button"
              tabIndex={0}
              style={{ cursor: 'pointer' }}
              aria-label={`${row.mitigation}: harmful ${formatPercent(row.harmfulBefore)} to ${formatPercent(row.harmfulAfter)}`}
              onClick={open}
              onKeyDown={onActivate(open)}
            >
              <text x={12} y={y + 1} fontSize={11} fontWeight={600} fill={palette.text}>
                <title>{row.mitigation}</title>
                {clip(row.mitigation, 17)}
              </text>
              <text x={12} y={y + 14} fontSize={9.5} fill={palette.faint}>
                <title>{`${row.before} → ${row.after}`}</title>
                {clip(row.after, 22)}
              </text>
              <text x={12} y={y + 26} fontSize={9.5} fill={palette.faint}>
                {clip(`vs ${row.before}`, 22)}
              </text>
              {dumbbell(row, 'harmful', y)}
              {dumbbell(row, 'helpful', y)}
            </g>
          );
        })}
        <SwatchLegend
          x={12}
          y={height - 12}
          items={[
            { label: 'before (cue, no mitigation)', color: palette.before, shape: 'ring' },
            { label: 'after, harmful', color: palette.severity, shape: 'dot' },
            { label: 'after, helpful', color: palette.leniency, shape: 'dot' },
          ]}
          palette={palette}
        />
      </Figure>
    </ChartFrame>
  );
});
