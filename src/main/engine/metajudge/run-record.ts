/**
 * One judge rep as the meta-judge reads it (App. N: "the two numbered trajectories"): its
 * investigation tool calls with their outputs, the conversation after the opening prompt, the
 * final verdict and rationale, and the prompt it was given (with the tool outputs, the support
 * corpus of the trajectory diff). Loaded from the stored transcript, so it works offline and after a bundle
 * is opened in another workspace.
 */
import { EngineError } from '../errors';
import { type Store } from '../store';
import {
  type StoredMessage,
  readStoredRep,
  repMessages,
  repReasoning,
  repToolCalls,
} from '../store/faces/reps';
import type { Outcome } from '../mechanism-labels';

/** One investigation tool call (the verdict tool is not one). */
export interface CallView {
  /** Position among the run's investigation calls, 0-based. */
  index: number;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
}

/** One step of the run after its opening prompt. */
export type RunStep =
  | { kind: 'say'; text: string }
  | { kind: 'call'; name: string; input: unknown }
  | { kind: 'result'; name: string; output: string; isError: boolean }
  | { kind: 'user'; text: string }
  | { kind: 'verdict'; fields: Record<string, unknown> };

/** A rep, read for comparison. */
export interface RunRecord {
  repId: string;
  verdict: Outcome | null;
  rationale: string;
  calls: CallView[];
  steps: RunStep[];
  /** The prompt the run was given: system prompt and user messages (task, trajectory, cue). */
  prompt: string[];
  /** The cue text and direction the rep ran under; null uncued. */
  cue: { text: string; direction: 'severity' | 'leniency' } | null;
  /** Reasoning the model returned, per turn that had any (never sent to the meta-judge). */
  reasoning: { turn: number; text: string }[];
}

/** Name of the judge's verdict tool (judge/tools.ts). */
const VERDICT_TOOL = 'submit_verdict';

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function cueOf(condition: Record<string, unknown>): RunRecord['cue'] {
  const text = condition.cueText;
  const direction = condition.direction;
  if (typeof text !== 'string' || (direction !== 'severity' && direction !== 'leniency'))
    return null;
  return { text, direction };
}

function stepsOf(messages: readonly StoredMessage[]): RunStep[] {
  const steps: RunStep[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      if (message.seq > 0) steps.push({ kind: 'user', text: message.content });
      continue;
    }
    if (message.role === 'tool') {
      const name = message.toolName ?? 'tool';
      steps.push({
        kind: 'result',
        name,
        output: message.content,
        isError: message.isError,
      });
      continue;
    }
    if (message.content.trim()) steps.push({ kind: 'say', text: message.content });
    for (const { name, input } of message.toolCalls) {
      steps.push(
        name === VERDICT_TOOL
          ? {
              kind: 'verdict',
              fields: record(typeof input === 'string' ? parseJson(input) : input),
            }
          : { kind: 'call', name, input },
      );
    }
  }
  return steps;
}

/** Loads a stored rep for comparison; throws not_found. */
export function loadRunRecord(store: Store, repId: string): RunRecord {
  const rep = readStoredRep(store, repId);
  if (!rep) throw new EngineError('not_found', `There is no judge rep "${repId}".`);
  const messages = repMessages(store, repId);
  const callRows = repToolCalls(store, repId);
  const calls = callRows
    .filter((row) => row.name !== VERDICT_TOOL)
    .map((row, index) => ({
      index,
      name: row.name,
      input: row.input,
      output: row.output,
      isError: row.isError,
    }));
  const verdict = record(rep.finalVerdict ?? rep.verdict);
  const outcome = verdict.outcome === 'pass' || verdict.outcome === 'fail' ? verdict.outcome : null;
  return {
    repId,
    verdict: outcome,
    rationale: typeof verdict.rationale === 'string' ? verdict.rationale : '',
    calls,
    steps: stepsOf(messages),
    prompt: [
      rep.systemPrompt,
      ...messages.filter((message) => message.role === 'user').map((message) => message.content),
    ],
    cue: cueOf(rep.condition),
    reasoning: repReasoning(store, repId),
  };
}
