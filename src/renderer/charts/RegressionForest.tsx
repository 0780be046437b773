/**
 * The factorial-ablation regression as a forest plot: each factor level's odds ratio of a harmful
 * flip against its factor's reference, the other factors held fixed, with its item-clustered 95%
 * interval on a log axis. A level on fewer than 15 items is a hollow dot; a level with no
 * estimate (separation, aliasing) says why in place of its dot.
 */
import { scaleLog } from 'd3';
import { memo, useMemo } from 'react';
import { AxisTitle } from './axes';
import { ChartFrame } from './ChartFrame';
import type { ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatP } from './format';
import { ODDS_TICKS, oddsDomain, regressionLines, type RegressionLine } from './models/regression';
import { readableNotes } from './table-values';
import { labelColumn, lineHeight, textWidth, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 928;
const emptyHeight = 300;
const top = 64;
const rowHeight = 20;
const size = 10.5;
const footnoteStart =
  'OR: odds of a harmful flip at the level against its factor’s reference (OR 1), the other factors held fixed · whiskers: 95% item-clustered (CR1) interval';

function ratio(value: number | null): string {
  if (value === null) return '—';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function facts(line: RegressionLine): [string, string][] {
  return [
    ['Odds ratio', line.reference ? '1 (reference)' : ratio(line.oddsRatio)],
    [
      '95% CI (item-clustered)',
      line.low === null ? '—' : `[${ratio(line.low)}, ${ratio(line.high)}]`,
    ],
    ['p (Wald, clustered)', formatP(line.p)],
    ['Flipped reps', `${line.flips} / ${line.reps}`],
    ['Items', String(line.items)],
    ...(line.warning ? [['Note', line.warning] as [string, string]] : []),
  ];
}

/** The right-hand column of a row: its odds ratio, or why it has none. */
function estimateText(line: RegressionLine): string {
  if (line.reference) return `reference${line.fewItems ? ' · few items' : ''}`;
  const estimate = line.oddsRatio;
  if (estimate === null) return line.warning ?? 'no estimate';
  return `${ratio(estimate)} [${ratio(line.low)}, ${ratio(line.high)}] · p ${formatP(line.p)}`;
}

/** The regression card. */
export const RegressionForest = memo(function RegressionForest(
  props: ResultChartProps<'regression'>,
) {
  const { table, studyId, arm } = props;
  const { tooltip, show, hide } = useTooltip();
  const lines = useMemo(() => regressionLines(table, arm), [table, arm]);
  const filled = lines.length > 0;
  const dimensions = new Set(lines.map((line) => line.dimension)).size;
  // Every rep is at one level of each factor, so a dimension's first factor counts its reps.
  const modelReps = [...new Set(lines.map((line) => line.dimension))].reduce((sum, dimension) => {
    const first = lines.find((line) => line.dimension === dimension);
    return (
      sum +
      lines
        .filter((line) => line.dimension === dimension && line.factor === first?.factor)
        .reduce((inner, line) => inner + line.reps, 0)
    );
  }, 0);
  const footnote = lines.some((line) => line.fewItems)
    ? `${footnoteStart} · hollow dot: fewer than 15 items, the interval under-covers`
    : footnoteStart;
  const label = (line: RegressionLine) =>
    `${dimensions > 1 ? `${line.dimension} · ` : ''}${line.factor}: ${line.level}`;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    // Narrow (a single-column export): no counts column (they are in the tooltip and the CSV),
    // and each row's odds ratio goes under its label instead of in a column of its own.
    const narrow = width < 600;
    const labelWidth = labelColumn(
      [...lines.map(label), ...(narrow ? lines.map(estimateText) : [])],
      size,
      80,
      narrow ? width * 0.45 : Math.min(260, width * 0.3),
    );
    const countsWidth = narrow ? 0 : textWidth('9999 / 9999', size) + 12;
    const textColumn = narrow ? 0 : Math.min(230, Math.max(150, width * 0.22));
    const plotLeft = 16 + labelWidth + countsWidth + 12;
    const plotRight = width - 16 - textColumn;
    const labelLines = (line: RegressionLine) => wrapText(label(line), labelWidth, size).length;
    const x = scaleLog().domain(oddsDomain(lines)).range([plotLeft, plotRight]).clamp(true);
    const rowsTop = top + 8;
    // A label that wraps (a long model id) makes its row taller, so rows never overlap.
    const heights = lines.map((line) => {
      const estimateLines = wrapText(
        estimateText(line),
        narrow ? labelWidth : textColumn - 16,
        size,
      ).length;
      const rows = narrow
        ? labelLines(line) + estimateLines
        : Math.max(labelLines(line), estimateLines);
      return Math.max(rowHeight, rows * lineHeight(size) + 7);
    });
    const offsets = heights.map((_, index) =>
      heights.slice(0, index).reduce((sum, height) => sum + height, 0),
    );
    const bottom = rowsTop + heights.reduce((sum, height) => sum + height, 0);
    const footTop = bottom + 46;
    const height = footTop + wrapText(footnote, width - 32, 10).length * lineHeight(10) + 4;
    const [domainLow, domainHigh] = x.domain() as [number, number];
    const ticks = ODDS_TICKS.filter((tick) => tick >= domainLow && tick <= domainHigh);
    return (
      <Figure
        frame={frame}
        height={height}
        title="Harmful flips regressed on the study’s factors"
        subtitle={`${arm ? `dimension ${arm.dimension}` : 'every dimension'} · odds ratios, log scale · n = ${modelReps} cued reps`}
        simulated={table?.simulated ?? false}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={rowsTop - 4} y2={bottom} stroke={palette.grid} />
            <line x1={x(tick)} x2={x(tick)} y1={bottom} y2={bottom + 4} stroke={palette.axis} />
            <text
              x={x(tick)}
              y={bottom + 16}
              fontSize={10.5}
              textAnchor="middle"
              fill={palette.muted}
            >
              {String(tick)}
            </text>
          </g>
        ))}
        <line x1={plotLeft} x2={plotRight} y1={bottom} y2={bottom} stroke={palette.axis} />
        <line
          x1={x(1)}
          x2={x(1)}
          y1={rowsTop - 6}
          y2={bottom}
          stroke={palette.axis}
          strokeDasharray="3 3"
        />
        <AxisTitle
          x={narrow ? width / 2 : (plotLeft + plotRight) / 2}
          y={bottom + 32}
          text="Odds ratio of a harmful flip (log scale)"
          palette={palette}
        />
        <g fontSize={size} fill={palette.muted}>
          <text x={16} y={top}>
            Factor: level
          </text>
          {!narrow && (
            <text x={16 + labelWidth + countsWidth} y={top} textAnchor="end">
              flips / reps
            </text>
          )}
          {!narrow && (
            <text x={plotRight + 12} y={top}>
              OR [95% CI] · p
            </text>
          )}
        </g>
        {lines.map((line, index) => {
          const y = rowsTop + (offsets[index] ?? 0) + rowHeight / 2;
          const mark = `${line.dimension}\u0000${line.factor}\u0000${line.level}`;
          const estimate = line.reference ? 1 : line.oddsRatio;
          const color = line.reference ? palette.faint : palette.after;
          return (
            <g
              key={mark}
              data-testid="regression-row"
              data-few-items={line.fewItems ? 'true' : 'false'}
              onMouseMove={(event) =>
                show(event, mark, <TooltipFacts title={label(line)} facts={facts(line)} />)
              }
              onMouseLeave={hide}
            >
              <rect
                x={16}
                y={y - rowHeight / 2}
                width={width - 32}
                height={heights[index] ?? rowHeight}
                fill="transparent"
              />
              <TextLines
                x={16}
                y={y + 4}
                text={label(line)}
                maxWidth={labelWidth}
                fontSize={size}
                fill={palette.text}
              />
              {!narrow && (
                <text
                  x={16 + labelWidth + countsWidth}
                  y={y + 4}
                  fontSize={size}
                  textAnchor="end"
                  fill={palette.muted}
                >
                  {`${line.flips} / ${line.reps}`}
                </text>
              )}
              {line.low !== null && line.high !== null && (
                <line
                  x1={x(line.low)}
                  x2={x(line.high)}
                  y1={y}
                  y2={y}
                  stroke={color}
                  strokeWidth={1.5}
                />
              )}
              {estimate !== null && (
                <circle
                  cx={x(estimate)}
                  cy={y}
                  r={!frame.exporting && tooltip?.mark === mark ? 5.5 : 4}
                  fill={line.fewItems ? palette.background : color}
                  stroke={color}
                  strokeWidth={1.5}
                />
              )}
              <TextLines
                x={narrow ? 16 : plotRight + 12}
                y={narrow ? y + 4 + labelLines(line) * lineHeight(size) : y + 4}
                text={estimateText(line)}
                maxWidth={narrow ? labelWidth : textColumn - 16}
                fontSize={size}
                fill={estimate === null ? palette.faint : palette.text}
                fontStyle={estimate === null ? 'italic' : undefined}
              />
            </g>
          );
        })}
        <TextLines
          x={16}
          y={footTop}
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
      table="regression"
      studyId={studyId}
      label="Factorial regression"
      reference="§3.2 ablations"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No factor with two levels among the cued reps"
      tooltip={tooltip}
      hint="Hover a row for its counts, interval and p."
      figure={draw}
    />
  );
});
