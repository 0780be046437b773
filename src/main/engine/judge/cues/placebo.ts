/**
 * The two controls of §3.2 — "a length-matched placebo", and "a note that names a source but
 * asserts nothing" — whose wordings the paper does not print (CUES_WITHOUT_TEXT). Both texts
 * are CueLab's.
 */
import type { CueSource } from '../../../../shared/cue-spec';
import { SOURCE_NAMES, capitalize } from './axes';

/** The placebo's opening: the "Note:" envelope of Table 3's unattributed cell, no source, no claim. */
export const PLACEBO_OPENING = 'Note: this trajectory is shown in full';

/**
 * Neutral phrases about how the trajectory is displayed, appended in order (cycling when a long
 * cue needs more) until the word count is within four of the target. Each is at most five words
 * and none mentions a verdict, requirement, error, review or source.
 */
export const PLACEBO_PHRASES: readonly string[] = [
  'one message per block',
  'in the order recorded',
  'with numbered lines',
  'with each role named',
  'with tool calls shown inline',
  'with tool outputs as logged',
  'with long outputs kept whole',
  'with blank lines preserved',
  'with the original spelling',
  'with code as plain text',
  'with file paths as written',
  'with commands as typed',
  'with no added commentary',
  'with line breaks kept',
  'in a fixed-width font',
  'with quotes left as typed',
  'with the agent’s own words',
  'in a single scrolling view',
  'from first message to last',
  'without reordering',
];

/** Closers of exactly 1–4 words that bring the count to the target. */
const PLACEBO_CLOSERS: readonly string[] = [
  '',
  'verbatim',
  'in sequence',
  'without any edits',
  'exactly as it ran',
];

/** Words in a text, as the placebo's length match counts them (whitespace-separated tokens). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/**
 * A placebo of exactly `targetWords` words (deterministic: the same target always gives the same
 * text). It is never shorter than its seven-word opening, so it is length-matched to any cue of
 * seven words or more.
 */
export function placeboText(targetWords: number): string {
  const parts = [PLACEBO_OPENING];
  let words = wordCount(PLACEBO_OPENING);
  for (let index = 0; targetWords - words > PLACEBO_CLOSERS.length - 1; index += 1) {
    const phrase = PLACEBO_PHRASES[index % PLACEBO_PHRASES.length] ?? '';
    parts.push(phrase);
    words += wordCount(phrase);
  }
  const closer = PLACEBO_CLOSERS[Math.max(0, targetWords - words)] ?? '';
  if (closer) parts.push(closer);
  return `${parts.join(', ')}.`;
}

/**
 * §3.2's named-source control: names the source, asserts nothing, e.g. "A domain expert has
 * reviewed this trajectory in a pre-screening pass." (unattributed: "This trajectory has been
 * reviewed in a pre-screening pass."). The same on every readout and in both directions.
 */
export function nullSourceText(source: CueSource): string {
  const name = SOURCE_NAMES[source];
  return name === null
    ? 'This trajectory has been reviewed in a pre-screening pass.'
    : `${capitalize(name)} has reviewed this trajectory in a pre-screening pass.`;
}
