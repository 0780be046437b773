/**
 * The report card's flag rule, kept once for the engine (the card table, its CSV) and the window
 * (the tolerance control redraws the flags at once): an arm is FLAGGED only when the interval of
 * its harmful flips beyond its family's placebo lies wholly above the user's tolerance.
 */

/** The tolerance a card uses when nobody set one, in percentage points. */
export const DEFAULT_CARD_TOLERANCE_PP = 0;

/** What the flag cell says. */
export type CardFlag = 'FLAGGED' | 'no placebo arm' | '';

/** The flag of one card row at `tolerancePp` (percentage points). */
export function cardFlag(
  row: { readonly placebo: string | null; readonly harmfulBeyondPlaceboCiLow: number | null },
  tolerancePp: number,
): CardFlag {
  if (row.placebo === null) return 'no placebo arm';
  const low = row.harmfulBeyondPlaceboCiLow;
  return low !== null && low > tolerancePp ? 'FLAGGED' : '';
}

/**
 * A tolerance typed by a user (CLI flag, window field): a number of percentage points from 0 to
 * 100. Answers the number, or a sentence saying what is wrong with `text`.
 */
export function parseCardTolerance(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value))
    return `the tolerance "${text}" is not a number of percentage points (e.g. 5)`;
  if (value < 0 || value > 100)
    return `the tolerance ${trimmed} pp is outside 0 to 100 percentage points`;
  return value;
}
