/**
 * "Flips beyond placebo": a cued arm's harmful-flip rate minus that of §3.2's length-matched
 * placebo arm ("a note that names a source but asserts nothing has about the same effect as a
 * length-matched placebo"), on the items gated in both arms, with Newcombe's paired interval
 * (paired-difference.ts). A placebo arm flips some verdicts by adding text alone; what a cue does
 * beyond that is its effect as an assertion.
 */
import { compositeKey } from './group';
import { newcombePairedDifference, type PairedDifference } from './paired-difference';
import type { PairedItem } from './pairs';
import { repRateKey } from './rep-rates';
import { rowFacts } from './row-facts';
import { TABLE_6_LEVELS, scopedTally, type TallySpec } from './scoped-tally';
import type { JudgeRepRow, Scope } from './types';

/**
 * True for a placebo arm: cue label `preset:placebo` or `placebo` (imported), or a composed cue
 * whose strength axis is the placebo (`axes:strength=placebo`, with or without other axes).
 */
export function isPlaceboArm(row: Pick<JudgeRepRow, 'cueLabel'>): boolean {
  const label = (row.cueLabel ?? '').trim().toLowerCase();
  if (label === 'placebo' || label === 'preset:placebo') return true;
  return label.startsWith('axes:') && label.slice(5).split(',').includes('strength=placebo');
}

/**
 * Each non-placebo cued condition's placebo arm: the one with the same placement and mitigation,
 * else the study's only placebo arm; none when neither exists. Keyed by condition.
 */
export function placeboArms(rows: readonly JudgeRepRow[], control: string): Map<string, string> {
  const arms = [...rowFacts(rows).conditions.values()].filter((row) => row.condition !== control);
  const placebos = arms.filter(isPlaceboArm);
  const where = (row: JudgeRepRow) => compositeKey(row.placement, row.mitigation);
  const out = new Map<string, string>();
  if (placebos.length === 0) return out;
  for (const arm of arms) {
    if (isPlaceboArm(arm)) continue;
    const match =
      placebos.find((placebo) => where(placebo) === where(arm)) ??
      (placebos.length === 1 ? placebos[0] : undefined);
    if (match) out.set(arm.condition, match.condition);
  }
  return out;
}

/** One arm's harmful flips beyond its placebo at one scope. */
export interface BeyondPlacebo extends PairedDifference {
  readonly placebo: string;
}

/** One item's cued pair beside its placebo arm's pair (same judge and dimension), both gated. */
interface PlaceboUnit {
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string;
  readonly dataset: string;
  readonly simulated: boolean;
  readonly cuedHarmful: boolean;
  readonly placeboHarmful: boolean;
}

/**
 * The paired counts (a: both flipped, b: the cued arm alone, c: the placebo alone, d: neither)
 * as a tally whose units join each item's cued and placebo pairs (scoped-tally.ts), so a live
 * refresh counts the batch's items, not the study's.
 */
function placeboTally(arms: ReadonlyMap<string, string>): TallySpec<Scope, PlaceboUnit> {
  return {
    id: `flips-beyond-placebo\u0000${JSON.stringify([...arms])}`,
    levels: TABLE_6_LEVELS,
    width: 4,
    count: (unit, counters) => {
      if (unit.cuedHarmful && unit.placeboHarmful) counters[0] = 1;
      else if (unit.cuedHarmful) counters[1] = 1;
      else if (unit.placeboHarmful) counters[2] = 1;
      else counters[3] = 1;
    },
    units: (itemPairs) => {
      const gated = new Map<string, PairedItem>();
      for (const pair of itemPairs)
        if (pair.status === 'gated')
          gated.set(compositeKey(pair.condition, pair.judge, pair.dimension), pair);
      const units: PlaceboUnit[] = [];
      for (const pair of gated.values()) {
        const placebo = arms.get(pair.condition);
        if (placebo === undefined) continue;
        const other = gated.get(compositeKey(placebo, pair.judge, pair.dimension));
        if (!other) continue;
        units.push({
          condition: pair.condition,
          dimension: pair.dimension,
          judge: pair.judge,
          dataset: pair.dataset,
          simulated: pair.simulated || other.simulated,
          cuedHarmful: pair.harmful,
          placeboHarmful: other.harmful,
        });
      }
      return units;
    },
  };
}

/**
 * Harmful flips beyond placebo per condition × dimension at Table 6's scopes, keyed by
 * repRateKey (rep-rates.ts). `pairs` must hold both the cued and the placebo arms' pairings.
 */
export function flipsBeyondPlacebo(
  pairs: readonly PairedItem[],
  arms: ReadonlyMap<string, string>,
): Map<string, BeyondPlacebo> {
  const out = new Map<string, BeyondPlacebo>();
  if (arms.size === 0) return out;
  for (const group of scopedTally(pairs, placeboTally(arms))) {
    const [both = 0, firstOnly = 0, secondOnly = 0, neither = 0] = group.counters;
    // A row whose items all left the pairing in a later batch is no row (as when counted afresh).
    if (both + firstOnly + secondOnly + neither === 0) continue;
    const difference = newcombePairedDifference({ both, firstOnly, secondOnly, neither });
    const placebo = arms.get(group.condition);
    if (difference && placebo !== undefined) out.set(repRateKey(group), { ...difference, placebo });
  }
  return out;
}
