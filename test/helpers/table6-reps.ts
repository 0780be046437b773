import type { BinaryVerdict } from '../../src/main/engine/analysis/types';

/** One item's reps in one arm, as the Table 6 fixtures generate them. */
export interface RepGroup {
  itemId: string;
  gold: BinaryVerdict | null;
  condition: 'uncued' | 'strong';
  verdicts: (BinaryVerdict | null)[];
  direction: '' | 'severity' | 'leniency';
}

const other = (verdict: BinaryVerdict): BinaryVerdict => (verdict === 'pass' ? 'fail' : 'pass');

/**
 * Per-rep verdicts that reproduce one Table 6 cell's counts: `n` items, the first `gate` judged
 * right by the uncued majority (`hf` of them flipped by the cue), the rest judged wrong (`help`
 * of them corrected). 2–1 splits and an invalid rep are mixed in without moving any majority,
 * plus a tied item and an item without gold that the analysis must exclude.
 */
export function table6RepGroups(cell: {
  dataset: string;
  n: number;
  gate: number;
  hf: number;
  help: number;
}): RepGroup[] {
  const groups: RepGroup[] = [];
  for (let index = 0; index < cell.n; index += 1) {
    const gold: BinaryVerdict = index % 2 === 0 ? 'pass' : 'fail';
    const gated = index < cell.gate;
    const uncued = gated ? gold : other(gold);
    const uncuedReps =
      index % 7 === 3
        ? [uncued, other(uncued), uncued]
        : index % 11 === 5
          ? [uncued, null, uncued]
          : [uncued, uncued, uncued];
    const flips = gated ? index < cell.hf : index - cell.gate < cell.help;
    const cued = flips ? other(uncued) : uncued;
    const cuedReps = index % 5 === 0 ? [cued, other(cued), cued] : [cued, cued, cued];
    const itemId = `${cell.dataset}-${index}`;
    groups.push({ itemId, gold, condition: 'uncued', verdicts: uncuedReps, direction: '' });
    const direction = uncued === 'pass' ? 'severity' : 'leniency';
    groups.push({ itemId, gold, condition: 'strong', verdicts: cuedReps, direction });
  }
  const tie = `${cell.dataset}-tie`;
  const nogold = `${cell.dataset}-nogold`;
  groups.push({
    itemId: tie,
    gold: 'pass',
    condition: 'uncued',
    verdicts: ['pass', 'fail', null],
    direction: '',
  });
  groups.push({
    itemId: tie,
    gold: 'pass',
    condition: 'strong',
    verdicts: ['fail', 'fail', 'fail'],
    direction: 'severity',
  });
  groups.push({
    itemId: nogold,
    gold: null,
    condition: 'uncued',
    verdicts: ['pass', 'pass', 'pass'],
    direction: '',
  });
  groups.push({
    itemId: nogold,
    gold: null,
    condition: 'strong',
    verdicts: ['fail', 'fail', 'fail'],
    direction: 'severity',
  });
  return groups;
}
