/**
 * The ensemble's decision (§3.3: "a three-model ensemble ... with Opus-4.7 as the tie-breaker on
 * a three-way split"; App. N: "majority vote ... with Opus-4.7 as tie-breaker on a 1-1-1
 * split"). Pure.
 *
 * Rule: a label given by more than half of all voters wins (an invalid vote counts as a vote
 * for nothing, so it can block a majority but never win one). Otherwise the tie-breaker's
 * label decides, if it gave a valid one; else the ensemble's label is `invalid` (no decision;
 * never guessed). With three voters, "no strict majority" is exactly the 1-1-1 split (an invalid
 * vote being its own "1").
 */
import type { MechanismLabel, OverTrustSubMode } from '../../mechanism-labels';

/** One voter's vote. */
export interface Vote {
  voterId: string;
  label: MechanismLabel | 'invalid';
  subMode?: OverTrustSubMode | null;
}

/** The ensemble's decision. */
export interface VoteOutcome {
  label: MechanismLabel | 'invalid';
  /** Over-trust only: the sub-mode most of the winning voters gave, when most gave one. */
  subMode: OverTrustSubMode | null;
  decidedBy: 'majority' | 'tie-breaker' | 'none';
  /** Votes per label, invalid included. */
  tally: Record<string, number>;
}

function subModeOf(votes: readonly Vote[], label: string): OverTrustSubMode | null {
  const winners = votes.filter((vote) => vote.label === label);
  const counts = new Map<OverTrustSubMode, number>();
  for (const vote of winners)
    if (vote.subMode) counts.set(vote.subMode, (counts.get(vote.subMode) ?? 0) + 1);
  const top = [...counts.entries()].find(([, count]) => count * 2 > winners.length);
  return top ? top[0] : null;
}

/**
 * The ensemble's label from the votes and the tie-breaker's vote (`tieBreaker`: its label, which
 * for a member tie-breaker is its own vote; undefined or null when there is none).
 */
export function decideVote(votes: readonly Vote[], tieBreaker?: Vote | null): VoteOutcome {
  const tally: Record<string, number> = {};
  for (const vote of votes) tally[vote.label] = (tally[vote.label] ?? 0) + 1;
  const winner = Object.entries(tally).find(
    ([label, count]) => label !== 'invalid' && count * 2 > votes.length,
  );
  if (winner) {
    const label = winner[0] as MechanismLabel;
    return {
      label,
      subMode: label === 'over_trust' ? subModeOf(votes, label) : null,
      decidedBy: 'majority',
      tally,
    };
  }
  if (tieBreaker && tieBreaker.label !== 'invalid') {
    const subMode = tieBreaker.label === 'over_trust' ? (tieBreaker.subMode ?? null) : null;
    return { label: tieBreaker.label, subMode, decidedBy: 'tie-breaker', tally };
  }
  return { label: 'invalid', subMode: null, decidedBy: 'none', tally };
}
