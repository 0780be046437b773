/**
 * The comparison as a forest plot: one row per judge × condition × flip, a dot at study B −
 * study A in percentage points with its 95% interval, a zero line, filled dots for paired rows
 * and open ones for unpaired, the difference printed and the items counted at the right.
 * Every label is measured (text-layout.ts), so nothing is cut at a single column's width.
 */
import { scaleLinear } from 'd3';
import { Axis, AxisTitle } from '../../charts/axes';
import { Figure } from '../../charts/Figure';
import type { FigureFrame } from '../../charts/figure-frame';
import {
  fittingTicks,
  labelColumn,
  lineHeight,
  widestText,
  wrapText,
} from '../../charts/text-layout';
import { TextLines } from '../../charts/TextLines';
import { differenceDomain, formatDifference, type DifferenceRow } from './difference-rows';

const labelSize = 11;
const detailSize = 9.5;
const columnSize = 10.5;
const top = 64;
const gap = 12;
const axisTitle = 'Study B − study A, percentage points';

/** What the figure shows. */
export interface DifferenceFigureProps {
  frame: FigureFrame;
  rows: readonly DifferenceRow[];
  nameA: string;
  nameB: string;
  simulated: boolean;
}

/** Below this width the value column prints the difference alone (the whisker shows the CI). */
const compactWidth = 560;

/** The value column's heading and one row's entry at a figure width. */
function valueColumn(width: number) {
  const compact = width < compactWidth;
  return {
    heading: compact ? 'B − A' : 'B − A [95% CI]',
    text: (row: DifferenceRow) => (compact ? formatDifference(row.difference) : row.valueText),
  };
}

/** Where the columns sit and how tall each row is at a figure width. */
function layout(width: number, rows: readonly DifferenceRow[]) {
  const values = valueColumn(width);
  const texts = rows.flatMap((row) => [row.label, row.detail]);
  const labelWidth = labelColumn(texts, labelSize, 60, Math.min(220, width * 0.3));
  const countWidth = widestText(['n', ...rows.map((row) => row.count)], columnSize);
  const valueWidth = widestText([values.heading, ...rows.map(values.text)], columnSize);
  const countRight = width - 8;
  const valueRight = countRight - countWidth - gap;
  const left = 16 + labelWidth + 10;
  const right = valueRight - valueWidth - gap - 4;
  const rowHeights = rows.map((row) => {
    const lines =
      wrapText(row.label, labelWidth, labelSize).length * lineHeight(labelSize) +
      wrapText(row.detail, labelWidth, detailSize).length * lineHeight(detailSize);
    return Math.max(28, lines + 8);
  });
  const rowTops = rowHeights.map((_, index) =>
    rowHeights.slice(0, index).reduce((sum, height) => sum + height, top),
  );
  const bottom = top + rowHeights.reduce((sum, height) => sum + height, 0);
  const titleLines = wrapText(axisTitle, right - left + 40, 11).length;
  const height = bottom + 38 + (titleLines - 1) * lineHeight(11);
  return {
    values,
    labelWidth,
    countRight,
    valueRight,
    left,
    right,
    rowHeights,
    rowTops,
    bottom,
    height,
  };
}

/** The forest plot of B − A for one comparison. */
export function DifferenceFigure({ frame, rows, nameA, nameB, simulated }: DifferenceFigureProps) {
  const { width, palette } = frame;
  const place = layout(width, rows);
  const x = scaleLinear().domain(differenceDomain(rows)).range([place.left, place.right]);
  const items = rows.some((row) => !row.paired) ? 'n: shared items, or A / B' : 'n: shared items';
  return (
    <Figure
      frame={frame}
      height={place.height}
      title={`Flip rates compared: ${nameB} − ${nameA}`}
      subtitle={`Dot: difference, whisker: 95% CI; filled dot: paired (shared items), open: unpaired · ${items}`}
      simulated={simulated}
    >
      {x.ticks(fittingTicks(x)).map((tick) => (
        <line
          key={tick}
          x1={x(tick)}
          x2={x(tick)}
          y1={top}
          y2={place.bottom}
          stroke={palette.grid}
        />
      ))}
      <g fontSize={columnSize} fill={palette.muted}>
        <text x={place.left - 10} y={top - 6} textAnchor="end">
          Judge · condition
        </text>
        <text x={place.valueRight} y={top - 6} textAnchor="end">
          {place.values.heading}
        </text>
        <text x={place.countRight} y={top - 6} textAnchor="end">
          n
        </text>
      </g>
      <line x1={x(0)} x2={x(0)} y1={top} y2={place.bottom} stroke={palette.axis} />
      {rows.map((row, index) => {
        const rowHeight = place.rowHeights[index] ?? 28;
        const y = (place.rowTops[index] ?? top) + rowHeight / 2;
        const labelLines = wrapText(row.label, place.labelWidth, labelSize).length;
        const detailLines = wrapText(row.detail, place.labelWidth, detailSize).length;
        const block = labelLines * lineHeight(labelSize) + detailLines * lineHeight(detailSize);
        const firstBaseline = y - block / 2 + labelSize * 0.9;
        const colour = row.flip === 'harmful' ? palette.severity : palette.leniency;
        return (
          <g
            key={index}
            data-part="difference-row"
            aria-label={`${row.label}, ${row.detail}: ${formatDifference(row.difference)} pp`}
          >
            <TextLines
              x={place.left - 10}
              y={firstBaseline}
              text={row.label}
              maxWidth={place.labelWidth}
              fontSize={labelSize}
              fill={palette.text}
              anchor="end"
            />
            <TextLines
              x={place.left - 10}
              y={firstBaseline + labelLines * lineHeight(labelSize) - 1}
              text={row.detail}
              maxWidth={place.labelWidth}
              fontSize={detailSize}
              fill={palette.faint}
              anchor="end"
            />
            {row.low !== null && row.high !== null && (
              <g stroke={colour} strokeWidth={1.5}>
                <line x1={x(row.low)} x2={x(row.high)} y1={y} y2={y} />
                <line x1={x(row.low)} x2={x(row.low)} y1={y - 4} y2={y + 4} />
                <line x1={x(row.high)} x2={x(row.high)} y1={y - 4} y2={y + 4} />
              </g>
            )}
            {row.difference !== null && (
              <circle
                cx={x(row.difference)}
                cy={y}
                r={4.5}
                fill={row.paired ? colour : palette.background}
                stroke={colour}
                strokeWidth={1.5}
              />
            )}
            <g textAnchor="end" fontSize={columnSize}>
              <text x={place.valueRight} y={y + 4} fill={palette.text}>
                {place.values.text(row)}
              </text>
              <text x={place.countRight} y={y + 4} fill={palette.muted}>
                {row.count}
              </text>
            </g>
          </g>
        );
      })}
      <Axis
        orient="bottom"
        scale={x}
        offset={place.bottom}
        palette={palette}
        ticks={fittingTicks(x)}
        tickFormat={(value) => formatDifference(Number(value)).replace(/\.0$/, '')}
      />
      <AxisTitle
        x={(place.left + place.right) / 2}
        y={place.bottom + 32}
        text={axisTitle}
        palette={palette}
        maxWidth={place.right - place.left + 40}
      />
    </Figure>
  );
}
