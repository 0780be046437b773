/**
 * Table 1: harmful and helpful flip rates before → after each mitigation, from `mitigations`,
 * drawn as dumbbells with the exact McNemar p, pooled over judges or for one judge. "Before" is
 * a hollow ring drawn over a smaller filled "after" dot, so both stay visible when they meet.
 */
import { scaleLinear, type ScaleLinear } from 'd3';
import { memo, useMemo, useState } from 'react';
import { Axis } from './axes';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatP, formatPercent, percentTick } from './format';
import { JudgePicker } from './JudgePicker';
import { legendHeight, SwatchLegend, type LegendItem } from './legends';
import { mitigationModel, type MitigationRow } from './models/mitigation';
import { rateDomainMax, type ChartPalette } from './palette';
import { readableNotes } from './table-values';
import { fittingTicks, labelColumn, lineHeight, mostLines, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 456;
const emptyHeight = 380;
const panelGap = 18;
const right = 14;
const top = 58;
const kinds = ['harmful', 'helpful'] as const;
type Kind = (typeof kinds)[number];
const panelTitles: Record<Kind, string> = {
  harmful: 'Harmful flip rate (%)',
  helpful: 'Helpful flip rate (%)',
};

function pair(row: MitigationRow, kind: Kind) {
  return kind === 'harmful'
    ? {
        before: row.harmfulBefore,
        after: row.harmfulAfter,
        p: row.harmfulP,
        adjusted: row.harmfulPAdjusted,
        base: row.gate,
      }
    : {
        before: row.helpfulBefore,
        after: row.helpfulAfter,
        p: row.helpfulP,
        adjusted: row.helpfulPAdjusted,
        base: row.wrong,
      };
}

function pLabel(p: number | null): string {
  const text = formatP(p);
  return text.startsWith('<') ? `p < ${text.slice(1)}` : `p = ${text}`;
}

function readout(row: MitigationRow, kind: Kind): string {
  const { before, after, p } = pair(row, kind);
  if (before === null || after === null)
    return kind === 'helpful' ? 'no wrong items to correct' : 'no gated items';
  return `${formatPercent(before)} → ${formatPercent(after)} · ${pLabel(p)}`;
}

function legendItems(palette: ChartPalette): LegendItem[] {
  return [
    { label: 'before (cue, no mitigation)', color: palette.before, shape: 'ring' },
    { label: 'after, harmful', color: palette.severity, shape: 'dot' },
    { label: 'after, helpful', color: palette.leniency, shape: 'dot' },
  ];
}

/** The mitigations card. */
export const MitigationChart = memo(function MitigationChart(
  props: ResultChartProps<'mitigations'>,
) {
  const { table, studyId, onOpenReps } = props;
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
  const judgeLabel =
    model.judge === 'all' ? 'all judges and datasets pooled' : `judge ${model.judge ?? '—'}`;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const labels = rows.flatMap((row) => [row.mitigation, row.after, `vs ${row.before}`]);
    const labelWidth = labelColumn(labels, 11, 72, Math.min(190, width * 0.3), 600);
    const panelWidth = (width - 16 - labelWidth - 12 - right - panelGap) / 2;
    const scales = kinds.map((_, index) => {
      const x0 = 16 + labelWidth + 12 + index * (panelWidth + panelGap);
      return scaleLinear()
        .domain([0, max])
        .range([x0 + 6, x0 + panelWidth - 6]);
    });
    const panelTitleLines = mostLines(Object.values(panelTitles), panelWidth, 11, 600);
    const plotTop = top + panelTitleLines * lineHeight(11) + 4;
    const rowHeights = rows.map((row) => {
      const label =
        wrapText(row.mitigation, labelWidth, 11, 600).length * lineHeight(11) +
        wrapText(row.after, labelWidth, 9.5).length * lineHeight(9.5) +
        wrapText(`vs ${row.before}`, labelWidth, 9.5).length * lineHeight(9.5);
      const readouts = mostLines(
        kinds.map((kind) => readout(row, kind)),
        panelWidth,
        9.5,
      );
      return Math.max(label, 18 + readouts * lineHeight(9.5)) + 14;
    });
    const rowTops = rowHeights.map((_, index) =>
      rowHeights.slice(0, index).reduce((sum, rowHeight) => sum + rowHeight, plotTop + 6),
    );
    const bottom = plotTop + 6 + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0);
    const items = legendItems(palette);
    const legendTop = bottom + 38;
    const height = legendTop + legendHeight(items, width - 28) - 4;

    const dumbbell = (
      row: MitigationRow,
      kind: Kind,
      y: number,
      scale: ScaleLinear<number, number>,
    ) => {
      const { before, after, p, adjusted, base } = pair(row, kind);
      const mark = `${row.mitigation}\u0000${row.after}\u0000${kind}`;
      const [x0 = 0] = scale.range();
      const text = (
        <TextLines
          x={x0}
          y={y + 18}
          text={readout(row, kind)}
          maxWidth={panelWidth}
          fontSize={9.5}
          fill={before === null || after === null ? palette.faint : palette.muted}
        />
      );
      if (before === null || after === null) return <g key={kind}>{text}</g>;
      const color = kind === 'harmful' ? palette.severity : palette.leniency;
      return (
        <g
          key={kind}
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
                  ['Holm-adjusted p (all comparisons at this scope)', formatP(adjusted)],
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
            strokeWidth={!frame.exporting && tooltip?.mark === mark ? 3 : 2}
            strokeOpacity={0.7}
          />
          <circle cx={scale(after)} cy={y} r={3.5} fill={color} data-part="after" />
          <circle
            cx={scale(before)}
            cy={y}
            r={5.5}
            fill="none"
            stroke={palette.before}
            strokeWidth={2}
            data-part="before"
          />
          {text}
        </g>
      );
    };

    return (
      <Figure
        frame={frame}
        height={height}
        title="Flip rates before → after each mitigation"
        subtitle={`${judgeLabel} · n = ${rows[0]?.n ?? 0} paired items · exact McNemar p`}
        simulated={table?.simulated ?? false}
      >
        {kinds.map((kind, index) => {
          const scale = scales[index];
          if (!scale) return null;
          const [x0 = 0, x1 = 0] = scale.range();
          const ticks = fittingTicks(scale, 40);
          return (
            <g key={kind}>
              <TextLines
                x={x0}
                y={top + 8}
                text={panelTitles[kind]}
                maxWidth={panelWidth}
                fontSize={11}
                fontWeight={600}
                fill={palette.text}
              />
              {scale.ticks(ticks).map((tick) => (
                <line
                  key={tick}
                  x1={scale(tick)}
                  x2={scale(tick)}
                  y1={plotTop}
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
                ticks={ticks}
                tickFormat={percentTick}
              />
            </g>
          );
        })}
        {rows.map((row, index) => {
          const rowTop = rowTops[index] ?? plotTop;
          const y = rowTop + 8;
          const afterLines = wrapText(row.after, labelWidth, 9.5).length;
          const mitigationLines = wrapText(row.mitigation, labelWidth, 11, 600).length;
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
              <TextLines
                x={16}
                y={y + 4}
                text={row.mitigation}
                maxWidth={labelWidth}
                fontSize={11}
                fontWeight={600}
                fill={palette.text}
              />
              <TextLines
                x={16}
                y={y + 4 + mitigationLines * lineHeight(11)}
                text={row.after}
                maxWidth={labelWidth}
                fontSize={9.5}
                fill={palette.faint}
              />
              <TextLines
                x={16}
                y={y + 4 + mitigationLines * lineHeight(11) + afterLines * lineHeight(9.5)}
                text={`vs ${row.before}`}
                maxWidth={labelWidth}
                fontSize={9.5}
                fill={palette.faint}
              />
              {kinds.map((kind, kindIndex) => {
                const scale = scales[kindIndex];
                return scale ? dumbbell(row, kind, y, scale) : null;
              })}
            </g>
          );
        })}
        <SwatchLegend x={16} y={legendTop} items={items} palette={palette} maxWidth={width - 28} />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="mitigations"
      studyId={studyId}
      label="Mitigations"
      reference="Table 1"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No mitigated condition to compare yet"
      tooltip={tooltip}
      hint="Hover for the McNemar test; click a row for its reps."
      controls={<JudgePicker judges={model.judges} value={model.judge} onChange={setChosenJudge} />}
      figure={draw}
    />
  );
});
