/**
 * Majority verdict per item × judge × condition (§3.1: each arm "is judged three times ... and we
 * take the majority verdict").
 *
 * Tie / invalid rule (ours; the paper has three valid reps and never needs one): reps with no
 * valid verdict are left out of the vote; the majority is the verdict with strictly more valid
 * votes. A tie (e.g. one pass, one fail, one invalid) or an arm with no valid rep is
 * 'undetermined': the item enters no gate and no denominator, and is counted separately.
 */
import { anySimulated, compositeKey, groupBy } from './group';
import type { BinaryVerdict, CueDirection, JudgeRepRow } from './types';

/** 'decided' has a strict majority; 'tie' and 'no-valid' are the two undetermined cases. */
export type MajorityStatus = 'decided' | 'tie' | 'no-valid';

/** The vote over one arm's reps. */
export interface MajorityVote {
  /** The majority verdict; null unless `status` is 'decided'. */
  readonly verdict: BinaryVerdict | null;
  readonly status: MajorityStatus;
  readonly passVotes: number;
  readonly failVotes: number;
  /** Reps with no valid verdict (excluded from the vote). */
  readonly invalidReps: number;
}

/** One arm of one item for one judge, collapsed to its majority. */
export interface MajorityRow extends MajorityVote {
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly dimension: string;
  readonly condition: string;
  readonly cueDirection: CueDirection | null;
  /** The item's gold label (the same on every rep; conflicting labels throw). */
  readonly gold: BinaryVerdict | null;
  /** Reps behind the row, valid or not. */
  readonly n: number;
  readonly simulated: boolean;
}

/** The majority of a list of rep verdicts under the tie / invalid rule above. */
export function majorityVote(verdicts: readonly (BinaryVerdict | null)[]): MajorityVote {
  let passVotes = 0;
  let failVotes = 0;
  let invalidReps = 0;
  for (const verdict of verdicts) {
    if (verdict === 'pass') passVotes += 1;
    else if (verdict === 'fail') failVotes += 1;
    else invalidReps += 1;
  }
  const status: MajorityStatus =
    passVotes + failVotes === 0 ? 'no-valid' : passVotes === failVotes ? 'tie' : 'decided';
  const verdict = status === 'decided' ? (passVotes > failVotes ? 'pass' : 'fail') : null;
  return { verdict, status, passVotes, failVotes, invalidReps };
}

/** The item's gold label over its reps; throws when two reps disagree (an input error). */
export function goldOf(rows: readonly JudgeRepRow[]): BinaryVerdict | null {
  let gold: BinaryVerdict | null = null;
  for (const row of rows) {
    if (row.gold === null) continue;
    if (gold !== null && gold !== row.gold) {
      throw new Error(`Item ${row.dataset}/${row.itemId} has conflicting gold labels.`);
    }
    gold = row.gold;
  }
  return gold;
}

/** Key of the arm a rep belongs to (item × judge × dimension × condition × cue direction). */
export function armKey(row: JudgeRepRow): string {
  return compositeKey(
    row.judge,
    row.dataset,
    row.itemId,
    row.dimension,
    row.condition,
    row.cueDirection,
  );
}

/** Collapses reps to one majority row per item × judge × dimension × condition × direction. */
export function majorityVerdicts(rows: readonly JudgeRepRow[]): MajorityRow[] {
  return [...groupBy(rows, armKey).values()].map((reps) => majorityRow(reps));
}

/** The majority row of one arm's reps (all sharing an arm key; at least one rep). */
export function majorityRow(reps: readonly JudgeRepRow[]): MajorityRow {
  const first = reps[0];
  if (!first) throw new Error('majorityRow needs at least one rep.');
  return {
    judge: first.judge,
    dataset: first.dataset,
    itemId: first.itemId,
    dimension: first.dimension,
    condition: first.condition,
    cueDirection: first.cueDirection,
    gold: goldOf(reps),
    ...majorityVote(reps.map((rep) => rep.verdict)),
    n: reps.length,
    simulated: anySimulated(reps),
  };
}
