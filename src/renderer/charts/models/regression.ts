/** The regression forest plot from the `regression` table: one row per factor level. */
import type { ArmSelection, ReportTableOf } from '../table-values';

/** One factor level's odds ratio. */
export interface RegressionLine {
  readonly dimension: string;
  readonly factor: string;
  readonly level: string;
  readonly reference: boolean;
  /** The level its odds ratio is against. */
  readonly against: string;
  readonly reps: number;
  readonly flips: number;
  readonly items: number;
  readonly oddsRatio: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly p: number | null;
  readonly warning: string | null;
  /** The row rests on fewer than 15 items (drawn hollow). */
  readonly fewItems: boolean;
}

/** The levels of the picked arm's dimension (every dimension when none is picked). */
export function regressionLines(
  table: ReportTableOf<'regression'> | undefined,
  arm: ArmSelection | null,
): RegressionLine[] {
  return (table?.rows ?? [])
    .filter((row) => !arm || row.dimension === arm.dimension)
    .map((row) => ({
      dimension: row.dimension,
      factor: row.factor,
      level: row.level,
      reference: row.reference === 'reference',
      against: row.reference,
      reps: row.reps,
      flips: row.flips,
      items: row.items,
      oddsRatio: row.oddsRatio,
      low: row.oddsRatioCiLow,
      high: row.oddsRatioCiHigh,
      p: row.pValue,
      warning: row.warning,
      fewItems: row.warning?.startsWith('few items') ?? false,
    }));
}

/** Where the odds-ratio axis may put a tick (1-2-5 steps). */
export const ODDS_TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];

/**
 * The odds-ratio axis: a log scale over every interval, always showing 1 and widened to the
 * nearest ticks, within [1/100, 100].
 */
export function oddsDomain(lines: readonly RegressionLine[]): [number, number] {
  const values = lines.flatMap((line) =>
    [line.low, line.high, line.oddsRatio].filter((value): value is number => value !== null),
  );
  const low = Math.min(0.5, ...values);
  const high = Math.max(2, ...values);
  const below = ODDS_TICKS.filter((tick) => tick <= low);
  const above = ODDS_TICKS.filter((tick) => tick >= high);
  return [below[below.length - 1] ?? 0.01, above[0] ?? 100];
}
