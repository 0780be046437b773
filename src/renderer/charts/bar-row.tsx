/**
 * One row of a horizontal bar chart with a label column (effect bars, graded flips): the label
 * and its detail line right-aligned at the plot's left edge, wrapped to the column's width, the
 * bar from zero, its whisker and n. `barRowLayout` sizes rows so wrapped labels never touch.
 */
import type { ScaleLinear } from 'd3';
import { BarEnd } from './bar-ends';
import type { ChartPalette } from './palette';
import { labelColumn, lineHeight, textWidth, wrapText } from './text-layout';
import { TextLines } from './TextLines';

const labelSize = 11;
const detailSize = 9.5;
const countSize = 10.5;
/** Gap between the label column and the plot. */
const labelGap = 10;

/** What one row shows. */
export interface BarRowProps {
  x: ScaleLinear<number, number>;
  /** The row's centre line and the bar's thickness. */
  y: number;
  barHeight: number;
  /** Width the label and detail wrap at. */
  labelWidth: number;
  label: string;
  detail?: string;
  /** The rate; null draws an empty bar. */
  value: number | null;
  low?: number | null;
  high?: number | null;
  n: number;
  /** Where the n column ends (right-aligned). */
  countX: number;
  palette: ChartPalette;
}

/** Where the plot sits and how tall each row is, for rows of labels, details and counts. */
export interface BarRowLayout {
  /** The plot's left edge. */
  left: number;
  /** The plot's right edge (the n column is to its right). */
  right: number;
  labelWidth: number;
  rowHeights: number[];
  /** Each row's top edge, from the plot's top. */
  rowTops: number[];
  /** The plot's bottom edge (the percentage axis). */
  bottom: number;
  /** The figure's plot height: rows, axis and the axis title, wrapped at the plot's width. */
  height: number;
}

/**
 * Lays out label column, count column and row heights for a figure `width` wide whose rows
 * start at `top` and whose percentage axis is titled `axisTitle`.
 */
export function barRowLayout(
  width: number,
  rows: readonly { label: string; detail?: string; n: number }[],
  top: number,
  axisTitle: string,
): BarRowLayout {
  const texts = rows.flatMap((row) => [row.label, row.detail ?? '']);
  const labelWidth = labelColumn(texts, labelSize, 60, Math.min(240, width * 0.36));
  const countWidth = Math.max(
    textWidth('n', countSize),
    ...rows.map((row) => textWidth(String(row.n), countSize)),
  );
  const rowHeights = rows.map((row) => {
    const labelLines = wrapText(row.label, labelWidth, labelSize).length;
    const detailLines = row.detail ? wrapText(row.detail, labelWidth, detailSize).length : 0;
    const block = labelLines * lineHeight(labelSize) + detailLines * lineHeight(detailSize);
    return Math.max(26, Math.min(34, block + 12), block + 6);
  });
  const left = 16 + labelWidth + labelGap;
  const right = width - 8 - countWidth - 14;
  const rowTops = rowHeights.map((_, index) =>
    rowHeights.slice(0, index).reduce((sum, rowHeight) => sum + rowHeight, top),
  );
  const bottom = top + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0);
  const titleLines = wrapText(axisTitle, right - left + 40, 11).length;
  const height = bottom + 38 + (titleLines - 1) * lineHeight(11);
  return { left, right, labelWidth, rowHeights, rowTops, bottom, height };
}

/** The label, detail, bar and bar end of one row. */
export function BarRow(props: BarRowProps) {
  const { x, y, barHeight, label, detail, value, palette, labelWidth } = props;
  const [left = 0] = x.range();
  const end = x(value ?? 0);
  const labelLines = wrapText(label, labelWidth, labelSize).length;
  const detailLines = detail ? wrapText(detail, labelWidth, detailSize).length : 0;
  const block = labelLines * lineHeight(labelSize) + detailLines * lineHeight(detailSize);
  // The first baseline sits a cap height under the block's top, so the block centres on y.
  const firstBaseline = y - block / 2 + labelSize * 0.9;
  return (
    <>
      <TextLines
        x={left - labelGap}
        y={firstBaseline}
        text={label}
        maxWidth={labelWidth}
        fontSize={labelSize}
        fill={palette.text}
        anchor="end"
      />
      {detail && (
        <TextLines
          x={left - labelGap}
          y={firstBaseline + labelLines * lineHeight(labelSize) - 1}
          text={detail}
          maxWidth={labelWidth}
          fontSize={detailSize}
          fill={palette.faint}
          anchor="end"
        />
      )}
      <rect
        x={Math.min(x(0), end)}
        y={y - barHeight / 2}
        width={Math.abs(end - x(0))}
        height={barHeight}
        fill={value === null ? palette.empty : palette.categorical[0]}
      />
      <BarEnd
        x={x}
        y={y}
        low={props.low ?? null}
        high={props.high ?? null}
        n={props.n}
        countX={props.countX}
        palette={palette}
      />
    </>
  );
}
