/**
 * Table 5: end-to-end judge accuracy before the cue, under the adversarial cue, and under the
 * untargeted cue, with 95% Wilson CIs, from `accuracy`, drawn as an SVG table (so it exports
 * like the figures) with an inline bar per accuracy. Columns are measured: a narrow figure
 * moves each interval under its percentage, then drops the inline bars, before any name wraps.
 */
import { useId, memo, useMemo, useState } from 'react';
import { accuracyLayout, barWidth, intervalOffset, type CellMode } from './accuracy-layout';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatInterval, formatPercent } from './format';
import {
  accuracyRows,
  type AccuracyRow,
  type AccuracyScope,
  type AccuracyValue,
} from './models/accuracy';
import type { ChartPalette } from './palette';
import { readableNotes } from './table-values';
import { lineHeight, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 928;
const footnote =
  'before = uncued majority accuracy · adversarial = cue only against gold · untargeted = cue in both directions, corrections credited (App. C)';

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
  mode,
  palette,
}: {
  x: number;
  y: number;
  value: AccuracyValue;
  color: string;
  mode: CellMode;
  palette: ChartPalette;
}) {
  const scale = (pct: number) => x + (pct / 100) * barWidth;
  const percentX = mode === 'compact' ? x : x + barWidth + 6;
  return (
    <g>
      {mode !== 'compact' && (
        <>
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
        </>
      )}
      <text x={percentX} y={y} fontSize={11} fontWeight={600} fill={palette.text}>
        {formatPercent(value.pct)}
      </text>
      <text
        x={mode === 'line' ? x + intervalOffset() : x}
        y={mode === 'line' ? y : y + 13}
        fontSize={9.5}
        fill={palette.faint}
      >
        {formatInterval(value.low, value.high)}
      </text>
    </g>
  );
}

/** The accuracy card. */
export const AccuracyTable = memo(function AccuracyTable(props: ResultChartProps<'accuracy'>) {
  const { table, studyId, arm, onOpenReps } = props;
  const pickerId = useId();
  const { tooltip, show, hide } = useTooltip();
  const [scope, setScope] = useState<AccuracyScope>('judge');
  const rows = useMemo(() => accuracyRows(table, arm, scope), [table, arm, scope]);
  const filled = rows.length > 0;
  const withDataset = scope === 'judge-dataset';
  const emptyHeight = 240;

  const facts = (row: AccuracyRow): [string, string][] => [
    ['Items (N)', String(row.n)],
    ...measures.map(({ key, label }): [string, string] => [
      label,
      `${formatPercent(row[key].pct)} ${formatInterval(row[key].low, row[key].high)}`,
    ]),
    ['Harmful / helpful flips', `${row.harmful} / ${row.helpful}`],
  ];

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const colors = [palette.before, palette.severity, palette.leniency];
    const judgeNames = rows.map((row) => (row.scope === 'all' ? 'All judges (pooled)' : row.judge));
    const layout = accuracyLayout(
      width,
      rows.map((row, index) => ({
        judgeName: judgeNames[index] ?? '',
        dataset: withDataset && row.scope !== 'all' ? row.dataset : null,
        n: row.n,
      })),
      measures.map((measure) => measure.label),
    );
    const { mode, gap, judgeWidth, datasetX, datasetWidth, nRight, firstColumn, column } = layout;
    const { countX, helpX, headerY, rowHeights, rowBaselines, tableBottom, narrow } = layout;
    const height = tableBottom + 14 + wrapText(footnote, width - 32, 10).length * lineHeight(10);
    return (
      <Figure
        frame={frame}
        height={height}
        title="End-to-end judge accuracy under the cue"
        subtitle={`${armLabel(arm)} · accuracy in % of N gold-labelled items · bars 0–100%, whiskers: 95% Wilson CI`}
        simulated={table?.simulated ?? false}
      >
        <g fontSize={10.5} fill={palette.muted}>
          <text x={16} y={layout.namesHeaderY}>
            {narrow && withDataset ? 'Judge · dataset' : 'Judge'}
          </text>
          {withDataset && !narrow && (
            <text x={datasetX} y={headerY}>
              Dataset
            </text>
          )}
          <text x={nRight} y={headerY} textAnchor="end">
            N
          </text>
          {measures.map((measure, index) => (
            <TextLines
              key={measure.key}
              x={firstColumn + index * (column + gap)}
              y={headerY}
              text={measure.label}
              maxWidth={column}
              fontSize={10.5}
              fill={palette.muted}
              align="bottom"
            />
          ))}
          <text x={countX} y={layout.namesHeaderY} textAnchor="end">
            #HF
          </text>
          <text x={helpX} y={layout.namesHeaderY} textAnchor="end">
            #HELP
          </text>
        </g>
        <line x1={16} x2={width - 16} y1={headerY + 7} y2={headerY + 7} stroke={palette.axis} />
        {rows.map((row, index) => {
          const y = rowBaselines[index] ?? headerY;
          const rowHeight = rowHeights[index] ?? 24;
          const values = layout.valueBaselines[index] ?? y;
          const judgeLines = wrapText(judgeNames[index] ?? '', judgeWidth, 11, 600).length;
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
                y={y - 17}
                width={width - 32}
                height={rowHeight}
                fill={!frame.exporting && tooltip?.mark === mark ? palette.grid : 'transparent'}
                data-export-exclude=""
              />
              {pooled && (
                <line x1={16} x2={width - 16} y1={y - 17} y2={y - 17} stroke={palette.axis} />
              )}
              <TextLines
                x={16}
                y={y}
                text={judgeNames[index] ?? ''}
                maxWidth={judgeWidth}
                fontSize={11}
                fontWeight={pooled ? 600 : 400}
                fill={palette.text}
              />
              {withDataset && !pooled && (
                <TextLines
                  x={datasetX}
                  y={narrow ? y + judgeLines * lineHeight(11) : y}
                  text={row.dataset}
                  maxWidth={datasetWidth}
                  fontSize={11}
                  fill={palette.text}
                />
              )}
              <text x={nRight} y={values} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.n}
              </text>
              {measures.map((measure, columnIndex) => (
                <AccuracyCell
                  key={measure.key}
                  x={firstColumn + columnIndex * (column + gap)}
                  y={values}
                  value={row[measure.key]}
                  color={colors[columnIndex] ?? palette.text}
                  mode={mode}
                  palette={palette}
                />
              ))}
              <text x={countX} y={y} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.harmful}
              </text>
              <text x={helpX} y={y} textAnchor="end" fontSize={11} fill={palette.text}>
                {row.helpful}
              </text>
              <line
                x1={16}
                x2={width - 16}
                y1={y - 17 + rowHeight}
                y2={y - 17 + rowHeight}
                stroke={palette.grid}
              />
            </g>
          );
        })}
        <TextLines
          x={16}
          y={tableBottom + 18}
          text={footnote}
          maxWidth={width - 32}
          fontSize={10}
          fill={palette.faint}
        />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="accuracy"
      studyId={studyId}
      label="Judge accuracy under the cue"
      reference="Table 5"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gold-labelled pairs to score yet"
      tooltip={tooltip}
      hint="Click a row for its reps."
      figure={draw}
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
    />
  );
});
