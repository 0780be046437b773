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
import { rowFacts } from './row-facts';
import type { JudgeRepRow } from './types';
import { rowKeysOf } from './rep-rates';

/** True for a placebo arm: cue label `preset:placebo` (native) or `placebo` (imported). */
export function isPlaceboArm(row: Pick<JudgeRepRow, 'cueLabel'>): boolean {
  const label = (row.cueLabel ?? '').trim().toLowerCase();
  return label === 'placebo' || label === 'preset:placebo';
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

function itemOf(pair: PairedItem): string {
  return compositeKey(pair.judge, pair.dataset, pair.itemId, pair.dimension);
}

/**
 * Harmful flips beyond placebo per condition × dimension at Table 6's scopes, keyed by
 * repRateKey (rep-rates.ts). `pairs` must hold both the cued and the placebo arms' pairings.
 */
export function flipsBeyondPlacebo(
  pairs: readonly PairedItem[],
  arms: ReadonlyMap<string, string>,
): Map<string, BeyondPlacebo> {
  const gatedByArm = new Map<string, Map<string, PairedItem>>();
  for (const pair of pairs) {
    if (pair.status !== 'gated') continue;
    let items = gatedByArm.get(pair.condition);
    if (!items) gatedByArm.set(pair.condition, (items = new Map<string, PairedItem>()));
    items.set(itemOf(pair), pair);
  }
  const counts = new Map<string, { a: number; b: number; c: number; d: number; placebo: string }>();
  for (const [condition, placebo] of arms) {
    const placeboItems = gatedByArm.get(placebo);
    if (!placeboItems) continue;
    for (const [key, pair] of gatedByArm.get(condition) ?? []) {
      const other = placeboItems.get(key);
      if (!other) continue;
      for (const rowKey of rowKeysOf(pair)) {
        let cell = counts.get(rowKey);
        if (!cell) counts.set(rowKey, (cell = { a: 0, b: 0, c: 0, d: 0, placebo }));
        if (pair.harmful && other.harmful) cell.a += 1;
        else if (pair.harmful) cell.b += 1;
        else if (other.harmful) cell.c += 1;
        else cell.d += 1;
      }
    }
  }
  const out = new Map<string, BeyondPlacebo>();
  for (const [key, cell] of counts) {
    const difference = newcombePairedDifference({
      both: cell.a,
      firstOnly: cell.b,
      secondOnly: cell.c,
      neither: cell.d,
    });
    if (difference) out.set(key, { ...difference, placebo: cell.placebo });
  }
  return out;
}
