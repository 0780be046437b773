/**
 * The sufficiency gate (§3.4): "a second, no-tool pass that audits a FAIL verdict and overturns
 * it if it does not cite a specific observed failure". It runs only on a binary FAIL; one
 * text-only call; an answer that does not parse is recorded as 'invalid' and changes nothing
 * (never guessed). Both passes are kept: the judge's transcript untouched, the audit in a
 * GateRecord, and `applyGate` derives the final verdict from the two.
 */
import { z } from 'zod';
import type { ChatMessage, ModelRequest, ModelResponse } from '../../providers';
import type { ModelCall } from '../loop';
import type { Verdict, JudgeTranscript, TurnRecord } from '../../contract';
import { submitVerdictTool } from '../tools';

/** Options of one gate pass. */
export interface SufficiencyGateOptions {
  call: ModelCall;
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** The task as the judge saw it. */
  task: string;
  transcript: JudgeTranscript;
  /** The auditor's system prompt (builtin.ts SUFFICIENCY_GATE_PROMPT or a custom one). */
  gatePrompt: string;
  /** The mitigation id, for records; default 'sufficiency-gate'. */
  gateId?: string;
  /** USD for a call's usage, or null when unknown. */
  costOf: (response: ModelResponse) => number | null;
  /** Characters of each tool output the auditor sees; default 2,000. */
  maxOutputChars?: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** What the audit concluded: the FAIL cites a specific observed failure, does not, or no answer. */
export type GateAuditVerdict = 'grounded' | 'ungrounded' | 'invalid';

/** A binary verdict. */
export type BinaryVerdict = Extract<Verdict, { kind: 'binary' }>;

/** One gate pass, as recorded. `applied` is false unless the judge's verdict was a binary FAIL. */
export type GateRecord =
  | { gateId: string; applied: false; overturned: false; skippedBecause: string }
  | {
      gateId: string;
      applied: true;
      /** True only for 'ungrounded'. */
      overturned: boolean;
      auditVerdict: GateAuditVerdict;
      /** The auditor's reason, or for 'invalid' what was wrong with its answer. */
      rationale: string;
      /** The judge's FAIL, as it was. */
      originalVerdict: BinaryVerdict;
      request: { system: string; messages: ChatMessage[] };
      responseText: string;
      turn: TurnRecord;
    };

const auditAnswerSchema = z.object({
  cites_specific_observed_failure: z.boolean(),
  reason: z.string().trim().min(1),
});

/** The auditor's user message: the task, the FAIL rationale, the tool calls with outputs. */
export function gateAuditMessage(
  task: string,
  transcript: JudgeTranscript,
  verdict: BinaryVerdict,
  maxOutputChars = 2000,
): string {
  const calls = transcript.toolCalls.filter((call) => call.name !== submitVerdictTool);
  const lines = [
    '# Task given to the agent',
    task,
    '',
    '# The judge’s verdict: FAIL',
    verdict.rationale,
    '',
    `# Tool calls the judge made (${calls.length})`,
  ];
  if (calls.length === 0) lines.push('(none)');
  calls.forEach((call, index) => {
    const input = truncate(JSON.stringify(call.input) ?? 'null', 500);
    lines.push('', `## ${index + 1}. ${call.name} ${input}${call.isError ? ' (error)' : ''}`);
    lines.push(truncate(call.output, maxOutputChars));
  });
  lines.push('', 'Answer with the JSON object your instructions describe.');
  return lines.join('\n');
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [truncated: ${text.length - max} more characters]`;
}

/** Reads the auditor's answer: the whole text, a fenced block, or the outermost `{…}`. */
export function parseGateAnswer(
  text: string,
): { ok: true; grounded: boolean; reason: string } | { ok: false; problem: string } {
  const trimmed = text.trim();
  const candidates = [
    trimmed,
    ...[...trimmed.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((match) => match[1] ?? ''),
    trimmed.slice(trimmed.indexOf('{'), trimmed.lastIndexOf('}') + 1),
  ];
  const answers: { grounded: boolean; reason: string }[] = [];
  for (const candidate of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(candidate) as unknown;
    } catch {
      continue;
    }
    const parsed = auditAnswerSchema.safeParse(value);
    if (parsed.success) {
      answers.push({
        grounded: parsed.data.cites_specific_observed_failure,
        reason: parsed.data.reason,
      });
    }
  }
  const [first] = answers;
  if (!first) {
    return { ok: false, problem: 'no JSON object with cites_specific_observed_failure and reason' };
  }
  if (answers.some((answer) => answer.grounded !== first.grounded)) {
    return { ok: false, problem: 'the answer contains contradictory JSON objects' };
  }
  return { ok: true, ...first };
}

/**
 * Runs the gate on one judge rep. No call is made unless the verdict is a binary FAIL. Provider
 * errors propagate (the rep's caller records them like any failed call).
 */
export async function runSufficiencyGate(options: SufficiencyGateOptions): Promise<GateRecord> {
  const gateId = options.gateId ?? 'sufficiency-gate';
  const verdict = options.transcript.verdict;
  if (verdict?.kind !== 'binary' || verdict.outcome !== 'fail') {
    const skippedBecause =
      verdict === null
        ? 'the rep has no verdict'
        : verdict.kind === 'binary'
          ? 'the verdict is PASS'
          : `the readout is ${verdict.kind}, not binary`;
    return { gateId, applied: false, overturned: false, skippedBecause };
  }
  options.signal?.throwIfAborted();
  const now = options.now ?? Date.now;
  const messages: ChatMessage[] = [
    {
      role: 'user',
      content: gateAuditMessage(options.task, options.transcript, verdict, options.maxOutputChars),
    },
  ];
  const request: ModelRequest = {
    model: options.model,
    system: options.gatePrompt,
    messages,
    tools: [],
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  };
  const started = now();
  const result = await options.call(request, options.signal);
  const { response } = result;
  const turn: TurnRecord = {
    index: 0,
    startedAt: new Date(started).toISOString(),
    latencyMs: now() - started,
    usage: response.usage,
    costUsd: options.costOf(response),
    stopReason: response.stopReason,
    attempts: result.attempts,
    temperatureSent: result.temperatureSent,
  };
  const answer = parseGateAnswer(response.text);
  const auditVerdict: GateAuditVerdict = !answer.ok
    ? 'invalid'
    : answer.grounded
      ? 'grounded'
      : 'ungrounded';
  return {
    gateId,
    applied: true,
    overturned: auditVerdict === 'ungrounded',
    auditVerdict,
    rationale: answer.ok ? answer.reason : answer.problem,
    originalVerdict: verdict,
    request: { system: request.system, messages },
    responseText: response.text,
    turn,
  };
}

/**
 * The rep's final verdict after the gate: the judge's own unless the gate overturned it, in which
 * case PASS with the gate's reason appended to the judge's rationale. The gate states no
 * confidence of its own, so an overturned verdict carries confidence 0.5.
 */
export function applyGate(transcript: JudgeTranscript, gate: GateRecord | null): Verdict | null {
  if (gate === null || !gate.applied || !gate.overturned) return transcript.verdict;
  return {
    kind: 'binary',
    outcome: 'pass',
    confidence: 0.5,
    rationale: `${gate.originalVerdict.rationale}\n\n[${gate.gateId}] Overturned to PASS: ${gate.rationale}`,
  };
}
