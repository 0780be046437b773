/**
 * The end of a horizontal bar: its 95% CI whisker, when it has one, and its n. One leaf for
 * every bar chart (effect bars, graded flips, mechanism mix), so whiskers and counts read the
 * same everywhere and export with the same attributes.
 */
import type { ChartPalette } from './palette';

/** What BarEnd draws for one bar. */
export interface BarEndProps {
  /** The value axis: maps a rate to x. */
  x: (value: number) => number;
  /** The bar's centre line. */
  y: number;
  /** The CI's ends; no whisker when either is null or absent. */
  low?: number | null;
  high?: number | null;
  /** The count shown beside the bar. */
  n: number;
  /** Where the count sits, and which way it runs from there. */
  countX: number;
  countAnchor?: 'start' | 'end';
  /** Printed before the count, e.g. "n = ". */
  countPrefix?: string;
  palette: ChartPalette;
}

/** Half the height of a whisker's end caps. */
const CAP = 3;

/** A bar's whisker and count. */
export function BarEnd({
  x,
  y,
  low = null,
  high = null,
  n,
  countX,
  countAnchor = 'end',
  countPrefix = '',
  palette,
}: BarEndProps) {
  return (
    <>
      {low !== null && high !== null && (
        <g stroke={palette.text} strokeWidth={1} data-part="whisker">
          <line x1={x(low)} x2={x(high)} y1={y} y2={y} />
          <line x1={x(low)} x2={x(low)} y1={y - CAP} y2={y + CAP} />
          <line x1={x(high)} x2={x(high)} y1={y - CAP} y2={y + CAP} />
        </g>
      )}
      <text
        x={countX}
        y={y + 4}
        textAnchor={countAnchor}
        fontSize={10.5}
        fill={palette.muted}
        data-part="count"
      >
        {`${countPrefix}${n}`}
      </text>
    </>
  );
}

/** The heading over a column of counts. */
export function CountHeading({ x, y, palette }: { x: number; y: number; palette: ChartPalette }) {
  return (
    <text x={x} y={y} textAnchor="end" fontSize={10.5} fill={palette.muted}>
      n
    </text>
  );
}
