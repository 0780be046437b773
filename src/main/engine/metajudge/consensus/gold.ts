/**
 * Asking the meta-judge ensemble for one item's gold on one dimension without a verifier
 * (App. G's noisy ground truth): every voter the same prompt, text only, in parallel, as for mechanisms (App. N,
 * App. R); the verdict given by more than half of the voters wins, else the tie-breaker's
 * (§3.3's rule for the ensemble), else no gold. An unreadable answer is an invalid vote, never
 * guessed; a failure that would fail every call alike (a rejected key, an unknown model) is
 * thrown.
 */
import { z } from 'zod';
import type { ModelProvider } from '../../providers';
import { jsonCandidates, parseObject } from '../ensemble/answer';
import {
  askVoter,
  voterProviderOptions,
  type EnsembleDeps,
  type VoterResult,
} from '../ensemble/run';
import { tieBreakerOf, type EnsembleConfig, type Voter } from '../ensemble/voters';
import type { Outcome } from '../../mechanism-labels';
import {
  CONSENSUS_PROMPT_VERSION,
  consensusSystemPrompt,
  consensusUserMessage,
  type ConsensusCase,
} from './prompt';

/** One voter's gold answer, as stored. */
export interface GoldVote {
  voterId: string;
  model: string;
  role: 'voter' | 'tie-breaker';
  verdict: Outcome | 'invalid';
  rationale: string;
  evidenceLines: string[];
  problem?: string;
  raw: string;
  /** What the voter's provider was asked beyond the prompt (App. R). */
  providerOptions: VoterResult['providerOptions'];
}

/** The ensemble's gold for one item and dimension. */
export interface ConsensusGold {
  gold: Outcome | null;
  decidedBy: 'majority' | 'tie-breaker' | 'none';
  tally: Record<string, number>;
  votes: GoldVote[];
  tieBreakerId: string;
  promptVersion: string;
}

const answerSchema = z.object({
  verdict: z.string(),
  rationale: z.string().default(''),
  evidence_lines: z.array(z.union([z.string(), z.number()])).default([]),
});

/** Reads a gold answer: `{verdict: pass|fail, rationale, evidence_lines}`, or why not. */
export function parseGoldAnswer(
  text: string,
  lines: number,
):
  | { ok: true; verdict: Outcome; rationale: string; evidenceLines: string[] }
  | { ok: false; problem: string } {
  const visible = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const object = jsonCandidates(visible)
    .map(parseObject)
    .find((value) => value !== null && 'verdict' in value);
  if (!object) return { ok: false, problem: 'the answer holds no JSON object with a "verdict"' };
  const parsed = answerSchema.safeParse(object);
  if (!parsed.success) return { ok: false, problem: "the answer's JSON is malformed" };
  const verdict = parsed.data.verdict.trim().toLowerCase();
  if (verdict !== 'pass' && verdict !== 'fail')
    return { ok: false, problem: `"${parsed.data.verdict}" is neither pass nor fail` };
  const evidenceLines = parsed.data.evidence_lines.flatMap((entry) => {
    const match = /^\[?E(\d+)\]?$/i.exec(String(entry).trim());
    const number = Number(match?.[1]);
    return match && number >= 1 && number <= lines ? [`E${number}`] : [];
  });
  return { ok: true, verdict, rationale: parsed.data.rationale, evidenceLines };
}

/** The decision from the votes (pure): strict majority, else the tie-breaker's valid verdict. */
export function decideGold(
  votes: readonly { verdict: Outcome | 'invalid' }[],
  tieBreaker: { verdict: Outcome | 'invalid' } | null,
): Pick<ConsensusGold, 'gold' | 'decidedBy' | 'tally'> {
  const tally: Record<string, number> = {};
  for (const vote of votes) tally[vote.verdict] = (tally[vote.verdict] ?? 0) + 1;
  for (const verdict of ['pass', 'fail'] as const)
    if ((tally[verdict] ?? 0) * 2 > votes.length)
      return { gold: verdict, decidedBy: 'majority', tally };
  if (tieBreaker && tieBreaker.verdict !== 'invalid')
    return { gold: tieBreaker.verdict, decidedBy: 'tie-breaker', tally };
  return { gold: null, decidedBy: 'none', tally };
}

async function ask(
  voter: Voter,
  role: GoldVote['role'],
  entry: ConsensusCase,
  deps: EnsembleDeps,
): Promise<GoldVote> {
  const message = consensusUserMessage(entry);
  const base = { voterId: voter.id, model: voter.model, role };
  const call = await askVoter(voter, consensusSystemPrompt(entry.dimension), message.text, deps);
  const raw = call.ok ? call.raw : '';
  const answer = call.ok ? parseGoldAnswer(call.raw, message.lines) : call;
  const providerOptions = voterProviderOptions(voter);
  if (!answer.ok)
    return {
      ...base,
      verdict: 'invalid',
      rationale: '',
      evidenceLines: [],
      problem: answer.problem,
      raw,
      providerOptions,
    };
  const { verdict, rationale, evidenceLines } = answer;
  return { ...base, verdict, rationale, evidenceLines, raw, providerOptions };
}

/** Asks every voter for one item's gold on one dimension and decides it. */
export async function runConsensusGold(
  entry: ConsensusCase,
  config: EnsembleConfig,
  deps: EnsembleDeps & { providerFor(voter: Voter): ModelProvider },
): Promise<ConsensusGold> {
  const votes = await Promise.all(config.voters.map((voter) => ask(voter, 'voter', entry, deps)));
  const tieBreaker = tieBreakerOf(config);
  let outcome = decideGold(votes, null);
  if (outcome.decidedBy === 'none') {
    const decider = tieBreaker.member
      ? votes.find((vote) => vote.voterId === tieBreaker.voter.id)
      : await ask(tieBreaker.voter, 'tie-breaker', entry, deps);
    if (decider && !tieBreaker.member) votes.push(decider);
    outcome = decideGold(
      votes.filter((vote) => vote.role === 'voter'),
      decider ?? null,
    );
  }
  return {
    ...outcome,
    votes,
    tieBreakerId: tieBreaker.voter.id,
    promptVersion: CONSENSUS_PROMPT_VERSION,
  };
}
