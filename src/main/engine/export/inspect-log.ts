/**
 * `cuelab export-inspect STUDY DIR` (issue 11): a study's reps as Inspect AI logs, so
 * `inspect view DIR` opens CueLab results. One log (`.json`, Inspect log format version 2, or
 * Inspect's zipped `.eval`, see inspect-eval.ts) per judge and condition; each rep is a sample (id = item, epoch = rep number) whose messages are
 * the judge's exact transcript, with its verdict as a score and, where the item has one, a
 * second score saying whether the verdict matches the gold label.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../errors';
import { redactKeyJson } from '../secrets';
import {
  type Store,
  type StoredMessage,
  type StoredRep,
  repMessages,
  studyHeader,
  studyStoredReps,
  suiteItemGold,
} from '../store';
import { inspectEvalArchive, type InspectLogShape } from './inspect-eval';

/** A sample's score as Inspect's `Score` (history: edits made since scoring, none here). */
interface InspectScore {
  value: string | number;
  answer: string;
  explanation: string;
  history: unknown[];
}

/** One log written. */
export interface InspectLogFile {
  file: string;
  judge: string;
  condition: string;
  samples: number;
}

/** The two files Inspect reads: its JSON log, or its default zipped `.eval`. */
export type InspectLogFormat = 'json' | 'eval';

/** Writes the study's reps as Inspect logs into `folder`; returns what it wrote. */
export function exportInspectLogs(
  store: Store,
  studyId: string,
  folder: string,
  format: InspectLogFormat = 'json',
): InspectLogFile[] {
  const study = studyHeader(store, studyId);
  if (!study)
    throw new EngineError('not_found', `There is no study "${studyId}" in this workspace.`);
  const reps = studyStoredReps(store, studyId);
  if (reps.length === 0) throw new EngineError('bad_request', `Study ${studyId} has no reps yet.`);
  const groups = new Map<string, StoredRep[]>();
  for (const rep of reps) {
    const key = `${rep.provider}/${rep.model}\u0000${conditionLabel(rep.condition)}`;
    groups.set(key, [...(groups.get(key) ?? []), rep]);
  }
  mkdirSync(folder, { recursive: true });
  const written: InspectLogFile[] = [];
  for (const [key, rows] of groups) {
    const [judge = '', condition = ''] = key.split('\u0000');
    // The one place keys are redacted from Inspect logs: both formats are written from `log`.
    const log = redactKeyJson(buildLog(store, study, judge, condition, rows));
    const id = createHash('sha256').update(`${studyId}/${key}`).digest('hex').slice(0, 22);
    const stamp = study.createdAt.replace(/[:.]/g, '-');
    const file = join(folder, `${stamp}_${slug(study.name)}-${slug(condition)}_${id}.${format}`);
    writeFileSync(
      file,
      format === 'eval' ? inspectEvalArchive(log) : `${JSON.stringify(log, null, 2)}\n`,
    );
    written.push({ file, judge, condition, samples: rows.length });
  }
  return written;
}

function buildLog(
  store: Store,
  study: { id: string; name: string; createdAt: string },
  judge: string,
  condition: string,
  reps: StoredRep[],
): InspectLogShape {
  const gold = new Map<string, string | undefined>();
  const epochs = new Map<string, number>();
  const samples = reps.map((rep) => {
    if (!gold.has(rep.itemId)) gold.set(rep.itemId, suiteItemGold(store, rep.suiteId, rep.itemId));
    const epoch = (epochs.get(rep.itemId) ?? 0) + 1;
    epochs.set(rep.itemId, epoch);
    return sample(store, rep, epoch, gold.get(rep.itemId));
  });
  const agreeing = samples.filter((entry) => entry.scores.matches_gold?.value === 'C').length;
  const labelled = samples.filter((entry) => entry.scores.matches_gold !== undefined).length;
  const simulated = reps.some((rep) => rep.simulated);
  // Field for field as Inspect writes an EvalLog today (its `inspect-openapi.json` marks every
  // one of these required, defaults included), so its viewer finds nothing missing.
  return {
    version: 2,
    status: 'success',
    eval: {
      eval_id: createHash('sha256')
        .update(`${study.id}/${judge}/${condition}`)
        .digest('hex')
        .slice(0, 22),
      run_id: study.id,
      created: study.createdAt,
      task: `cuelab/${slug(study.name)}`,
      task_id: `${study.id}-${slug(condition)}`,
      task_version: 0,
      task_attribs: {},
      task_args: {},
      task_args_passed: {},
      dataset: {
        name: reps[0]?.suiteId ?? '',
        samples: new Set(reps.map((rep) => rep.itemId)).size,
      },
      model: judge,
      model_generate_config: {},
      model_args: {},
      config: {},
      packages: { cuelab: 'see the study bundle' },
      metadata: { cuelab_study: study.id, condition, simulated },
    },
    plan: {
      name: 'plan',
      steps: [{ solver: 'cuelab_judge', params: { condition }, params_passed: { condition } }],
      config: {},
    },
    results: {
      total_samples: samples.length,
      completed_samples: samples.length,
      scores: labelled
        ? [
            {
              name: 'matches_gold',
              scorer: 'matches_gold',
              params: {},
              metrics: { accuracy: { name: 'accuracy', value: agreeing / labelled, params: {} } },
            },
          ]
        : [],
    },
    stats: {
      started_at: reps[0]?.createdAt ?? study.createdAt,
      completed_at: reps[reps.length - 1]?.createdAt ?? study.createdAt,
      model_usage: {
        [judge]: {
          input_tokens: sum(reps, (rep) => rep.inputTokens),
          output_tokens: sum(reps, (rep) => rep.outputTokens),
          total_tokens: sum(reps, (rep) => rep.inputTokens + rep.outputTokens),
        },
      },
      role_usage: {},
      connection_limit_history: [],
    },
    invalidated: false,
    tags: [],
    metadata: {},
    samples,
  };
}

function sample(store: Store, rep: StoredRep, epoch: number, gold: string | undefined) {
  const rows = repMessages(store, rep.id);
  const messages = [
    { role: 'system', content: rep.systemPrompt },
    ...rows.map((row) => message(row)),
  ];
  const verdict = rep.finalVerdict ?? rep.verdict;
  const answer = verdictAnswer(verdict, rep.outcome);
  const scores: Record<string, InspectScore> = {
    verdict: {
      value: answer,
      answer,
      explanation: rationale(verdict) ?? rep.error ?? rep.outcome,
      history: [],
    },
  };
  if (gold && (answer === 'pass' || answer === 'fail')) {
    scores.matches_gold = {
      value: answer === gold ? 'C' : 'I',
      answer,
      explanation: `gold: ${gold}`,
      history: [],
    };
  }
  const last = rows.filter((row) => row.role === 'assistant').pop();
  return {
    id: rep.itemId,
    epoch,
    input: rows[0]?.content ?? '',
    target: gold ?? '',
    messages,
    output: {
      model: rep.model,
      choices: last
        ? [{ message: message(last), stop_reason: rep.outcome === 'verdict' ? 'stop' : 'unknown' }]
        : [],
      completion: last?.content ?? '',
      usage: {
        input_tokens: rep.inputTokens,
        output_tokens: rep.outputTokens,
        total_tokens: rep.inputTokens + rep.outputTokens,
      },
    },
    scores,
    metadata: {
      cuelab_rep: rep.id,
      outcome: rep.outcome,
      condition: rep.condition,
      simulated: rep.simulated,
    },
    store: {},
    events: [],
    model_usage: {},
    role_usage: {},
    attachments: {},
    total_time: rep.durationMs / 1000,
    uuid: rep.id,
  };
}

function message(row: StoredMessage) {
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
            type: 'function',
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

/** A readable name for a condition: uncued, or the cue's preset and direction. */
function conditionLabel(condition: Record<string, unknown>): string {
  const cue = fields(condition.cue);
  const parts = [
    condition.cue
      ? `${text(cue.preset) ?? text(cue.kind) ?? 'cue'}-${text(condition.direction) ?? ''}`
      : 'uncued',
  ];
  const placement = text(fields(condition.placement).kind);
  if (placement) parts.push(placement);
  const mitigations = Array.isArray(condition.mitigations) ? condition.mitigations : [];
  for (const mitigation of mitigations) {
    const id = text(fields(mitigation).id);
    if (id) parts.push(id);
  }
  return parts.join('+');
}

/** The fields of a JSON object; none for anything else. */
function fields(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'study'
  );
}

function sum<T>(rows: readonly T[], value: (row: T) => number): number {
  return rows.reduce((total, row) => total + value(row), 0);
}
