/**
 * One judge rep as the meta-judge reads it (App. N: "the two numbered trajectories"): its
 * investigation tool calls with their outputs, the conversation after the opening prompt, the
 * final verdict and rationale, and the prompt it was given (with the tool outputs, the support
 * corpus of the trajectory diff). Loaded from the stored transcript, so it works offline and after a bundle
 * is opened in another workspace.
 */
import { EngineError } from '../errors';
import type { Store } from '../store';
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
}

/** Name of the judge's verdict tool (judge/tools.ts). */
const VERDICT_TOOL = 'submit_verdict';

interface RepRow {
  id: string;
  system_prompt: string;
  final_verdict_json: string | null;
  verdict_json: string | null;
  condition_json: string;
}

interface MessageRow {
  seq: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls_json: string | null;
  tool_name: string | null;
  is_error: number;
}

interface CallRow {
  name: string;
  input_json: string;
  output: string;
  is_error: number;
}

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

function stepsOf(messages: readonly MessageRow[]): RunStep[] {
  const steps: RunStep[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      if (message.seq > 0) steps.push({ kind: 'user', text: message.content });
      continue;
    }
    if (message.role === 'tool') {
      const name = message.tool_name ?? 'tool';
      steps.push({
        kind: 'result',
        name,
        output: message.content,
        isError: message.is_error === 1,
      });
      continue;
    }
    if (message.content.trim()) steps.push({ kind: 'say', text: message.content });
    const calls = parseJson(message.tool_calls_json);
    for (const call of Array.isArray(calls) ? calls : []) {
      const { name, input } = record(call);
      if (typeof name !== 'string') continue;
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
  const rep = store.db
    .prepare(
      'SELECT id, system_prompt, final_verdict_json, verdict_json, condition_json FROM judge_reps WHERE id = ?',
    )
    .get(repId) as RepRow | undefined;
  if (!rep) throw new EngineError('not_found', `There is no judge rep "${repId}".`);
  const messages = store.db
    .prepare(
      'SELECT seq, role, content, tool_calls_json, tool_name, is_error FROM judge_messages WHERE rep_id = ? ORDER BY seq',
    )
    .all(repId) as MessageRow[];
  const callRows = store.db
    .prepare(
      'SELECT name, input_json, output, is_error FROM judge_tool_calls WHERE rep_id = ? ORDER BY seq',
    )
    .all(repId) as CallRow[];
  const calls = callRows
    .filter((row) => row.name !== VERDICT_TOOL)
    .map((row, index) => ({
      index,
      name: row.name,
      input: parseJson(row.input_json),
      output: row.output,
      isError: row.is_error === 1,
    }));
  const verdict = record(parseJson(rep.final_verdict_json ?? rep.verdict_json));
  const outcome = verdict.outcome === 'pass' || verdict.outcome === 'fail' ? verdict.outcome : null;
  return {
    repId,
    verdict: outcome,
    rationale: typeof verdict.rationale === 'string' ? verdict.rationale : '',
    calls,
    steps: stepsOf(messages),
    prompt: [
      rep.system_prompt,
      ...messages.filter((message) => message.role === 'user').map((message) => message.content),
    ],
    cue: cueOf(record(parseJson(rep.condition_json))),
  };
}
