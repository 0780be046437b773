/**
 * One row of a horizontal bar chart with a label column (effect bars, graded flips): the label
 * and its detail line right-aligned at the plot's left edge, the bar from zero, its whisker and n.
 */
import type { ScaleLinear } from 'd3';
import { BarEnd } from './bar-ends';
import { clip } from './format';
import type { ChartPalette } from './palette';

/** What one row shows. */
export interface BarRowProps {
  x: ScaleLinear<number, number>;
  /** The row's centre line, its height and the bar's thickness. */
  y: number;
  rowHeight: number;
  barHeight: number;
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

/** The label, detail, bar and bar end of one row. */
export function BarRow(props: BarRowProps) {
  const { x, y, rowHeight, barHeight, label, detail, value, palette } = props;
  const [left = 0] = x.range();
  const tall = rowHeight >= 26;
  const end = x(value ?? 0);
  return (
    <>
      <text
        x={left - 10}
        y={tall ? y - 2 : y + 4}
        textAnchor="end"
        fontSize={11}
        fill={palette.text}
      >
        <title>{label}</title>
        {clip(label, 22)}
      </text>
      {tall && detail && (
        <text x={left - 10} y={y + 10} textAnchor="end" fontSize={9.5} fill={palette.faint}>
          {clip(detail, 26)}
        </text>
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
