/**
 * Table 5: end-to-end judge accuracy before the cue, under the adversarial cue, and under the
 * untargeted cue, with 95% Wilson CIs, from `accuracy`, drawn as an SVG table (so it exports
 * like the figures) with an inline bar per accuracy.
 */
import { useId, memo, useMemo, useRef, useState } from 'react';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatInterval, formatPercent } from './format';
import {
  accuracyRows,
  type AccuracyRow,
  type AccuracyScope,
  type AccuracyValue,
} from './models/accuracy';
import { useChartPalette, type ChartPalette } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 928;
const headerY = 78;
const rowHeight = 24;
const columnWidth = 170;
const barWidth = 58;

const measures = [
  { key: 'before', label: 'Before the cue' },
  { key: 'adversarial', label: 'Adversarial cue' },
  { key: 'untargeted', label: 'Untargeted cue' },
] as const;

function AccuracyCell({
  x,
  y,
  value,
  color,
  palette,
}: {
  x: number;
  y: number;
  value: AccuracyValue;
  color: string;
  palette: ChartPalette;
}) {
  const scale = (pct: number) => x + (pct / 100) * barWidth;
  return (
    <g>
      <rect x={x} y={y - 8} width={barWidth} height={9} fill={palette.empty} />
      {value.pct !== null && (
        <rect x={x} y={y - 8} width={scale(value.pct) - x} height={9} fill={color} />
      )}
      {value.low !== null && value.high !== null && (
        <line
          x1={scale(value.low)}
          x2={scale(value.high)}
          y1={y - 3.5}
          y2={y - 3.5}
          stroke={palette.text}
          strokeWidth={1}
        />
      )}
      <text
        x={x + barWidth + 38}
        y={y}
        textAnchor="end"
        fontSize={11}
        fontWeight={600}
        fill={palette.text}
      >
        {formatPercent(value.pct)}
      </text>
      <text x={x + barWidth + 42} y={y} fontSize={9.5} fill={palette.faint}>
        {formatInterval(value.low, value.high)}
      </text>
    </g>
  );
}

/** The accuracy card. */
export const AccuracyTable = memo(function AccuracyTable(props: ResultChartProps) {
  const { table, studyId, arm, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const pickerId = useId();
  const { tooltip, show, hide } = useTooltip();
  const [scope, setScope] = useState<AccuracyScope>('judge');
  const rows = useMemo(() => accuracyRows(table, arm, scope), [table, arm, scope]);
  const filled = rows.length > 0;
  const withDataset = scope === 'judge-dataset';
  const height = Math.max(240, headerY + 16 + rows.length * rowHeight + 34);
  const nRight = withDataset ? 310 : 180;
  const firstColumn = nRight + 16;
  const countX = firstColumn + 3 * columnWidth + 44;
  const colors = [palette.before, palette.severity, palette.leniency];

  const facts = (row: AccuracyRow): [string, string][] => [
    ['Items (N)', String(row.n)],
    ...measures.map(({ key, label }): [string, string] => [
      label,
      `${formatPercent(row[key].pct)} ${formatInterval(row[key].low, row[key].high)}`,
    ]),
    ['Harmful / helpful flips', `${row.harmful} / ${row.helpful}`],
  ];

  return (
    <ChartFrame
      table="accuracy"
      studyId={studyId}
      label="Judge accuracy under the cue"
      reference="Table 5"
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gold-labelled pairs to score yet"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Click a row for its reps."
      controls={
        <label className="chart-picker" htmlFor={pickerId}>
          <span>Rows</span>
          <select
            id={pickerId}
            value={scope}
            onChange={(event) => setScope(event.target.value as AccuracyScope)}
          >
            <option value="judge">Per judge (Table 5)</option>
            <option value="judge-dataset">Per judge × dataset (Table 6)</option>
          </select>
        </label>
      }
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="End-to-end judge accuracy under the cue"
        subtitle={`${armLabel(arm)} · accuracy in % of N gold-labelled items · bars 0–100%, whiskers: 95% Wilson CI`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        <g fontSize={10.5} fill={palette.muted}>
          <text x={16} y={headerY}>
            Judge
          </text>
          {withDataset && (
            <text x={150} y={headerY}>
              Dataset
            </text>
          )}
          <text x={nRight} y={headerY} textAnchor="end">
            N
          </text>
          {measures.map((measure, index) => (
            <text key={measure.key} x={firstColumn + index * columnWidth} y={headerY}>
              {measure.label}
            </text>
          ))}
          <text x={countX} y={headerY} textAnchor="end">
            #HF
          </text>
          <text x={countX + 48} y={headerY} textAnchor="end">
            #HELP
          </text>
        </g>
        <line x1={16} x2={width - 16} y1={headerY + 7} y2={headerY + 7} stroke={palette.axis} />
        {rows.map((row, index) => {
          const y = headerY + 7 + rowHeight * (index + 1) - 7;
          const pooled = row.scope === 'all';
          const mark = `${row.judge}\u0000${row.dataset}`;
          const open = () =>
            onOpenReps({
              title: `${row.judge} · ${row.dataset} · ${arm?.condition ?? 'all'}`,
              ...(row.judge !== 'all' ? { judgeId: row.judge } : {}),
              ...(row.dataset !== 'all' ? { dataset: row.dataset } : {}),
              ...(arm ? { conditionKeys: [arm.condition, 'uncued'] } : {}),
            });
          return (
            <g
              key={mark}
              role="button"
              tabIndex={0}
              style={{ cursor: 'pointer' }}
              aria-label={`${row.judge} ${row.dataset}`}
              onMouseMove={(event) =>
                show(
                  event,
                  mark,
                  <TooltipFacts title={`${row.judge} · ${row.dataset}`} facts={facts(row)} />,
                )
              }
              onMouseLeave={hide}
              onClick={open}
              onKeyDown={onActivate(open)}
            >
              <rect
                x={16}
                y={y - 16}
                width={width - 32}
                height={rowHeight}
                fill={tooltip?.mark === mark ? palette.grid : 'transparent'}
                data-export-exclude=""
              />
              {pooled && (
                <line x1={16} x2={width - 16} y1={y - 16} y2={y - 16} stroke={palette.axis} />
              )}
              <text x={16} y={y} fontSize={11} fontWeight={pooled ? 600 : 400} fill={palette.text}>
                {pooled ? 'All judges (pooled)' : clip(row.judge, withDataset ? 20 : 24)}
              </text>
              {withDataset && !pooled && (
                <text x={150} y={y} fontSize={11} fill={palette.text}>
                  {clip(row.dataset, 22)}
                </text>
              )}
              <text x={nRight} y={y} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.n}
              </text>
              {measures.map((measure, column) => (
                <AccuracyCell
                  key={measure.key}
                  x={firstColumn + column * columnWidth}
                  y={y}
                  value={row[measure.key]}
                  color={colors[column] ?? palette.text}
                  palette={palette}
                />
              ))}
              <text x={countX} y={y} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.harmful}
              </text>
              <text x={countX + 48} y={y} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.helpful}
              </text>
              <line x1={16} x2={width - 16} y1={y + 8} y2={y + 8} stroke={palette.grid} />
            </g>
          );
        })}
        <text x={16} y={height - 12} fontSize={10} fill={palette.faint}>
          before = uncued majority accuracy · adversarial = cue only against gold · untargeted = cue
          in both directions, corrections credited (App. C)
        </text>
      </Figure>
    </ChartFrame>
  );
});
