/**
 * Running the meta-judge ensemble on one flip (§3.3, App. N): every voter gets the same system
 * prompt and user message, text only (no tools, App. R), in parallel; the vote is decided by
 * vote.ts; a separate tie-breaker is asked only on a split. Every voter's label, rationale and
 * raw answer are returned, so each voter can be reported alone (App. P, Table 10).
 *
 * A call that fails after its retries makes that voter `invalid` with the reason; a failure that
 * would fail every call alike (a rejected key, an unknown model, a cancellation) is thrown, so
 * a classification run stops instead of storing a study's worth of invalid votes.
 */
import {
  callWithRetry,
  type RetryOptions,
  ProviderError,
  type ModelProvider,
} from '../../providers';
import type { MechanismLabel, OverTrustSubMode } from '../../mechanism-labels';
import { parseVoterAnswer } from './answer';
import {
  META_JUDGE_PROMPT_VERSION,
  metaJudgeSystemPrompt,
  metaJudgeUserMessage,
  THINK_STEP_BY_STEP,
  type MetaJudgeCase,
} from './prompt';
import { decideVote, type VoteOutcome } from './vote';
import { tieBreakerOf, type EnsembleConfig, type Voter } from './voters';

/** One voter's answer, as stored. */
export interface VoterResult {
  voterId: string;
  model: string;
  /** 'voter', or 'tie-breaker' for a separate tie-breaker asked on a split. */
  role: 'voter' | 'tie-breaker';
  label: MechanismLabel | 'invalid';
  subMode: OverTrustSubMode | null;
  rationale: string;
  evidenceLines: string[];
  /** Why the answer is invalid. */
  problem?: string;
  /** The answer text as received (empty when the call failed). */
  raw: string;
  /** What the voter's provider was asked beyond the prompt (App. R), stored with its label. */
  providerOptions: {
    temperature: number | null;
    maxTokens: number | null;
    thinking: Voter['thinking'] | null;
    reasoningEffort: Voter['reasoningEffort'] | null;
  };
}

/** The ensemble's answer for one flip. */
export interface EnsembleResult extends VoteOutcome {
  voters: VoterResult[];
  tieBreakerId: string;
  promptVersion: string;
}

/** What running the ensemble needs from outside. */
export interface EnsembleDeps {
  /** The provider of a voter (built once per voter by the caller). */
  providerFor(voter: Voter): ModelProvider;
  retry?: Omit<RetryOptions, 'signal' | 'temperaturePolicy'>;
  signal?: AbortSignal;
}

const FATAL: readonly string[] = ['auth', 'not_found', 'aborted'];

/** What a voter's provider is asked beyond the prompt (App. R), as stored with its answer. */
export function voterProviderOptions(voter: Voter): VoterResult['providerOptions'] {
  return {
    temperature: voter.temperature ?? null,
    maxTokens: voter.maxTokens ?? null,
    thinking: voter.thinking ?? null,
    reasoningEffort: voter.reasoningEffort ?? null,
  };
}

/**
 * One text-only call to a voter (App. R: no tools, provider default temperature unless set,
 * think-step-by-step prepended when asked). A failure that would fail every call alike is
 * thrown; any other failed call comes back as a problem, so the vote is invalid.
 */
export async function askVoter(
  voter: Voter,
  system: string,
  text: string,
  deps: EnsembleDeps,
): Promise<{ ok: true; raw: string } | { ok: false; problem: string }> {
  try {
    const { response } = await callWithRetry(
      deps.providerFor(voter),
      {
        model: voter.model,
        system,
        messages: [
          {
            role: 'user',
            content: voter.thinkStepByStep ? `${THINK_STEP_BY_STEP}\n\n${text}` : text,
          },
        ],
        tools: [],
        ...(voter.temperature === undefined ? {} : { temperature: voter.temperature }),
        ...(voter.maxTokens === undefined ? {} : { maxTokens: voter.maxTokens }),
        ...(voter.thinking ? { thinking: voter.thinking } : {}),
        ...(voter.reasoningEffort ? { reasoningEffort: voter.reasoningEffort } : {}),
      },
      { ...deps.retry, ...(deps.signal ? { signal: deps.signal } : {}) },
    );
    return { ok: true, raw: response.text };
  } catch (error) {
    if (!(error instanceof ProviderError) || FATAL.includes(error.kind)) throw error;
    return { ok: false, problem: `the call failed: ${error.message}` };
  }
}

async function ask(
  voter: Voter,
  role: VoterResult['role'],
  entry: MetaJudgeCase,
  deps: EnsembleDeps,
): Promise<VoterResult> {
  const message = metaJudgeUserMessage(entry);
  const base = {
    voterId: voter.id,
    model: voter.model,
    role,
    providerOptions: voterProviderOptions(voter),
  };
  const call = await askVoter(voter, metaJudgeSystemPrompt(entry.kind), message.text, deps);
  const answer = call.ok
    ? parseVoterAnswer(call.raw, entry.kind, {
        baseline: message.baselineLines,
        cued: message.cuedLines,
      })
    : call;
  if (!answer.ok)
    return {
      ...base,
      label: 'invalid',
      subMode: null,
      rationale: '',
      evidenceLines: [],
      problem: answer.problem,
      raw: call.ok ? call.raw : '',
    };
  return {
    ...base,
    label: answer.label,
    subMode: answer.subMode,
    rationale: answer.rationale,
    evidenceLines: answer.evidenceLines,
    raw: call.ok ? call.raw : '',
  };
}

/** Asks every voter about one flip and decides the ensemble's label. */
export async function runEnsemble(
  entry: MetaJudgeCase,
  config: EnsembleConfig,
  deps: EnsembleDeps,
): Promise<EnsembleResult> {
  const voters = await Promise.all(config.voters.map((voter) => ask(voter, 'voter', entry, deps)));
  const tieBreaker = tieBreakerOf(config);
  const votes = voters.map((result) => ({
    voterId: result.voterId,
    label: result.label,
    subMode: result.subMode,
  }));
  let outcome = decideVote(votes);
  if (outcome.decidedBy === 'none') {
    const decider = tieBreaker.member
      ? voters.find((result) => result.voterId === tieBreaker.voter.id)
      : await ask(tieBreaker.voter, 'tie-breaker', entry, deps);
    if (decider && !tieBreaker.member) voters.push(decider);
    outcome = decideVote(votes, decider ?? null);
  }
  return {
    ...outcome,
    voters,
    tieBreakerId: tieBreaker.voter.id,
    promptVersion: META_JUDGE_PROMPT_VERSION,
  };
}
