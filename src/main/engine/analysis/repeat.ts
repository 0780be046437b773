/**
 * "Flips beyond repeat": a cued arm's harmful-flip rate minus the rate at which a second run of
 * the uncued control (`uncued+repeat`, `arms.uncuedRepeat`) disagrees with the uncued majority,
 * on the items gated in both, with Newcombe's paired interval (paired-difference.ts). A judge
 * re-run without any cue changes some majorities by sampling noise alone; what a cue does beyond
 * that test-retest floor is its effect. The repeat's majority is taken over all its reps (it has
 * no direction) and compared with the same uncued majority the cued arm is paired with.
 */
import { uncuedRepeatKey } from '../../../shared/condition-keys';
import { compositeKey } from './group';
import { newcombePairedDifference, type PairedDifference } from './paired-difference';
import { binaryDimensions, pairRows, type PairedItem } from './pairs';
import { repRateKey } from './rep-rates';
import { TABLE_6_LEVELS, scopedTally, type TallySpec } from './scoped-tally';
import type { JudgeRepRow } from './types';

/** The condition name of the uncued repeat's reps in analysis rows. */
export const UNCUED_REPEAT_CONDITION = uncuedRepeatKey;

/** How the repeat is named among the pairs this module makes (not a condition of any study). */
const REPEAT_ARM = '\u0000uncued-repeat';

/** One arm's harmful flips beyond the uncued repeat at one scope. */
export type BeyondRepeat = PairedDifference;

/**
 * The uncued repeat paired with the control as if it were an arm: `harmful` is true for a gated
 * item whose repeat majority left the uncued majority (and so gold). Empty without repeat reps.
 */
export function repeatPairs(rows: readonly JudgeRepRow[], control: string): PairedItem[] {
  const relabelled: JudgeRepRow[] = [];
  let repeats = 0;
  for (const row of rows) {
    if (row.condition === control) relabelled.push(row);
    else if (row.condition === UNCUED_REPEAT_CONDITION) {
      relabelled.push({ ...row, condition: REPEAT_ARM, cueDirection: null });
      repeats += 1;
    }
  }
  if (repeats === 0) return [];
  return pairRows(relabelled, control, binaryDimensions(rows));
}

/** One item's cued pair beside its repeat pair (same judge and dimension), both gated. */
interface RepeatUnit {
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string;
  readonly dataset: string;
  readonly simulated: boolean;
  readonly cuedHarmful: boolean;
  readonly repeatDisagrees: boolean;
}

/** Paired counts (a: both, b: cued arm alone, c: repeat alone, d: neither) per item. */
const repeatTally: TallySpec<'judge-dataset' | 'judge' | 'all', RepeatUnit> = {
  id: 'flips-beyond-repeat',
  levels: TABLE_6_LEVELS,
  width: 4,
  count: (unit, counters) => {
    if (unit.cuedHarmful && unit.repeatDisagrees) counters[0] = 1;
    else if (unit.cuedHarmful) counters[1] = 1;
    else if (unit.repeatDisagrees) counters[2] = 1;
    else counters[3] = 1;
  },
  units: (itemPairs) => {
    const repeats = new Map<string, PairedItem>();
    for (const pair of itemPairs)
      if (pair.condition === REPEAT_ARM && pair.status === 'gated')
        repeats.set(compositeKey(pair.judge, pair.dimension), pair);
    const units: RepeatUnit[] = [];
    for (const pair of itemPairs) {
      if (pair.condition === REPEAT_ARM || pair.status !== 'gated') continue;
      const repeat = repeats.get(compositeKey(pair.judge, pair.dimension));
      if (!repeat) continue;
      units.push({
        condition: pair.condition,
        dimension: pair.dimension,
        judge: pair.judge,
        dataset: pair.dataset,
        simulated: pair.simulated || repeat.simulated,
        cuedHarmful: pair.harmful,
        repeatDisagrees: repeat.harmful,
      });
    }
    return units;
  },
};

/**
 * Harmful flips beyond the uncued repeat per cued condition × dimension at Table 6's scopes,
 * keyed by repRateKey (rep-rates.ts). `pairs` are the cued arms' pairings (pairs.ts); `rows` give
 * the repeat's reps. Empty when the study has no uncued repeat.
 */
export function flipsBeyondRepeat(
  rows: readonly JudgeRepRow[],
  pairs: readonly PairedItem[],
  control: string,
): Map<string, BeyondRepeat> {
  const out = new Map<string, BeyondRepeat>();
  const repeat = repeatPairs(rows, control);
  if (repeat.length === 0) return out;
  for (const group of scopedTally([...pairs, ...repeat], repeatTally)) {
    const [both = 0, firstOnly = 0, secondOnly = 0, neither = 0] = group.counters;
    if (both + firstOnly + secondOnly + neither === 0) continue;
    const difference = newcombePairedDifference({ both, firstOnly, secondOnly, neither });
    if (difference) out.set(repRateKey(group), difference);
  }
  return out;
}
