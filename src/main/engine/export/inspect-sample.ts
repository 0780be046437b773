/**
 * One Inspect sample per rep: a rep CueLab ran (its exact transcript as messages and events) or
 * a rep `import-results` stored (results only: no transcript exists, so the sample holds the
 * verdict, the gold label and the record's fields, and no messages).
 */
import type { StoredMessage, StoredRep } from '../store/faces/reps';
import type { ImportedAnalysisRecord } from '../store/faces/studies';
import type { InspectSampleShape } from './inspect-eval';
import { transcriptEvents, type InspectMessage, type InspectScore } from './inspect-events';

/** A sample and what the log's header sums over. */
export interface ExportSample {
  sample: InspectSampleShape & { events: unknown[]; [field: string]: unknown };
  /** Every score of the sample, by scorer name. */
  scores: Record<string, InspectScore>;
  inputTokens: number;
  outputTokens: number;
  createdAt: string;
}

/** The scores of a verdict: the verdict itself and, with a gold label, whether it matches. */
function scoresOf(answer: string, explanation: string, gold: string | undefined) {
  const scores: Record<string, InspectScore> = {
    verdict: { value: answer, answer, explanation, history: [] },
  };
  if (gold && (answer === 'pass' || answer === 'fail')) {
    scores.matches_gold = {
      value: answer === gold ? 'C' : 'I',
      answer,
      explanation: `gold: ${gold}`,
      history: [],
    };
  }
  return scores;
}

/** The fields every sample carries, empty where CueLab has nothing to put. */
function sampleFrame(id: string, epoch: number, uuid: string) {
  return { id, epoch, store: {}, model_usage: {}, role_usage: {}, attachments: {}, uuid };
}

/** A rep CueLab ran, as a sample with its transcript as messages and events. */
export function nativeSample(
  rep: StoredRep,
  rows: readonly StoredMessage[],
  epoch: number,
  gold: string | undefined,
): ExportSample {
  const messages: InspectMessage[] = [
    { role: 'system', content: rep.systemPrompt },
    ...rows.map((row) => message(row)),
  ];
  const verdict = rep.finalVerdict ?? rep.verdict;
  const answer = verdictAnswer(verdict, rep.outcome);
  const scores = scoresOf(answer, rationale(verdict) ?? rep.error ?? rep.outcome, gold);
  const last = messages.filter((entry) => entry.role === 'assistant').pop();
  const usage = {
    input_tokens: rep.inputTokens,
    output_tokens: rep.outputTokens,
    total_tokens: rep.inputTokens + rep.outputTokens,
  };
  return {
    sample: {
      ...sampleFrame(rep.itemId, epoch, rep.id),
      input: rows[0]?.content ?? '',
      target: gold ?? '',
      messages,
      output: {
        model: rep.model,
        choices: last
          ? [{ message: last, stop_reason: rep.outcome === 'verdict' ? 'stop' : 'unknown' }]
          : [],
        completion: last?.content ?? '',
        usage,
      },
      scores,
      metadata: {
        cuelab_rep: rep.id,
        outcome: rep.outcome,
        condition: rep.condition,
        simulated: rep.simulated,
      },
      events: transcriptEvents({
        messages,
        model: rep.model,
        timestamp: rep.createdAt,
        score: scores.verdict!,
        target: gold ?? '',
      }),
      total_time: rep.durationMs / 1000,
    },
    scores,
    inputTokens: rep.inputTokens,
    outputTokens: rep.outputTokens,
    createdAt: rep.createdAt,
  };
}

/** A rep `import-results` stored: its verdict and gold, and no transcript (none was given). */
export function importedSample(
  record: ImportedAnalysisRecord,
  createdAt: string,
  line: number,
): ExportSample {
  const answer = record.verdict ?? (record.score === null ? 'none' : String(record.score));
  const gold = record.gold ?? undefined;
  const scores = scoresOf(answer, 'imported result (import-results): no transcript', gold);
  return {
    sample: {
      ...sampleFrame(record.item_id, record.rep, `imported-${line}`),
      input: `Item ${record.item_id} of ${record.dataset} (imported result; no transcript)`,
      target: gold ?? '',
      messages: [],
      output: { model: record.judge, choices: [], completion: '' },
      scores,
      metadata: {
        imported: true,
        dataset: record.dataset,
        dimension: record.dimension,
        condition: record.condition,
        cue_direction: record.cue_direction,
        turns: record.turns,
        simulated: record.simulated === 1,
      },
      events: [],
      total_time: 0,
    },
    scores,
    inputTokens: 0,
    outputTokens: 0,
    createdAt,
  };
}

function message(row: StoredMessage): InspectMessage {
  if (row.role === 'tool') {
    return {
      role: 'tool',
      content: row.content,
      tool_call_id: row.toolCallId ?? '',
      function: row.toolName ?? '',
      ...(row.isError ? { error: { type: 'unknown', message: row.content } } : {}),
    };
  }
  const calls = row.toolCalls;
  return {
    role: row.role,
    content: row.content,
    ...(row.role === 'assistant' && calls.length
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            function: call.name,
            arguments: call.input ?? {},
            type: 'function' as const,
          })),
        }
      : {}),
  };
}

function verdictAnswer(verdict: unknown, outcome: string): string {
  const value = fields(verdict);
  const kind = text(value.kind);
  const binary = text(value.outcome);
  if (kind === 'binary' && binary) return binary;
  if (kind === 'graded' && typeof value.score === 'number') return String(value.score);
  if (kind) return kind;
  return outcome;
}

function rationale(verdict: unknown): string | undefined {
  return text(fields(verdict).rationale);
}

/** The fields of a JSON object; none for anything else. */
export function fields(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

/** The value when it is a string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
