/** How figures and tooltips print numbers: fixed decimals, a true minus sign, "—" for none. */
import { format } from 'd3';

const oneDecimal = format('.1f');
const threeDecimals = format('.3f');
const signedThree = format('+.3f');

/** A percentage such as "37.5%"; "—" when undefined. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${oneDecimal(value)}%`;
}

/** A percentage without the sign, for tight labels. */
export function formatRate(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : oneDecimal(value);
}

/** A 95% interval in percent, e.g. "[13.7, 69.4]". */
export function formatInterval(low: number | null, high: number | null): string {
  return low === null || high === null ? '—' : `[${oneDecimal(low)}, ${oneDecimal(high)}]`;
}

/** A p-value as the tables print it. */
export function formatP(value: number | null): string {
  if (value === null) return '—';
  return value < 0.001 ? '<0.001' : threeDecimals(value);
}

/** A correlation with its sign, e.g. "+0.219". */
export function formatR(value: number | null): string {
  return value === null ? '—' : signedThree(value);
}

/** A count, "—" when undefined. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : String(value);
}

/** An axis tick in percent, e.g. "25%". */
export function percentTick(value: number | { valueOf(): number }): string {
  return `${Number(value)}%`;
}
