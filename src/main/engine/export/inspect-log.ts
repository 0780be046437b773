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
import type { Store } from '../store';
import { inspectEvalArchive, type InspectLogShape } from './inspect-eval';

interface RepRow {
  id: string;
  item_id: string;
  suite_id: string;
  provider: string;
  model: string;
  simulated: number;
  condition_json: string;
  outcome: string;
  verdict_json: string | null;
  final_verdict_json: string | null;
  system_prompt: string;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
  duration_ms: number;
  error: string | null;
}

interface MessageRow {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls_json: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: number;
}

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
  const study = store.db
    .prepare('SELECT id, name, created_at FROM studies WHERE id = ?')
    .get(studyId) as { id: string; name: string; created_at: string } | undefined;
  if (!study)
    throw new EngineError('not_found', `There is no study "${studyId}" in this workspace.`);
  const reps = store.db
    .prepare('SELECT * FROM judge_reps WHERE study_id = ? ORDER BY created_at, id')
    .all(studyId) as RepRow[];
  if (reps.length === 0) throw new EngineError('bad_request', `Study ${studyId} has no reps yet.`);
  const groups = new Map<string, RepRow[]>();
  for (const rep of reps) {
    const key = `${rep.provider}/${rep.model}\u0000${conditionLabel(rep.condition_json)}`;
    groups.set(key, [...(groups.get(key) ?? []), rep]);
  }
  mkdirSync(folder, { recursive: true });
  const written: InspectLogFile[] = [];
  for (const [key, rows] of groups) {
    const [judge = '', condition = ''] = key.split('\u0000');
    const log = buildLog(store, study, judge, condition, rows);
    const id = createHash('sha256').update(`${studyId}/${key}`).digest('hex').slice(0, 22);
    const stamp = study.created_at.replace(/[:.]/g, '-');
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
  study: { id: string; name: string; created_at: string },
  judge: string,
  condition: string,
  reps: RepRow[],
): InspectLogShape {
  const gold = new Map<string, string | undefined>();
  const epochs = new Map<string, number>();
  const samples = reps.map((rep) => {
    if (!gold.has(rep.item_id)) gold.set(rep.item_id, itemGold(store, rep.suite_id, rep.item_id));
    const epoch = (epochs.get(rep.item_id) ?? 0) + 1;
    epochs.set(rep.item_id, epoch);
    return sample(store, rep, epoch, gold.get(rep.item_id));
  });
  const agreeing = samples.filter((entry) => entry.scores.matches_gold?.value === 'C').length;
  const labelled = samples.filter((entry) => entry.scores.matches_gold !== undefined).length;
  const simulated = reps.some((rep) => rep.simulated === 1);
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
      created: study.created_at,
      task: `cuelab/${slug(study.name)}`,
      task_id: `${study.id}-${slug(condition)}`,
      task_version: 0,
      task_attribs: {},
      task_args: {},
      task_args_passed: {},
      dataset: {
        name: reps[0]?.suite_id ?? '',
        samples: new Set(reps.map((rep) => rep.item_id)).size,
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
      started_at: reps[0]?.created_at ?? study.created_at,
      completed_at: reps[reps.length - 1]?.created_at ?? study.created_at,
      model_usage: {
        [judge]: {
          input_tokens: sum(reps, (rep) => rep.input_tokens),
          output_tokens: sum(reps, (rep) => rep.output_tokens),
          total_tokens: sum(reps, (rep) => rep.input_tokens + rep.output_tokens),
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

function sample(store: Store, rep: RepRow, epoch: number, gold: string | undefined) {
  const rows = store.db
    .prepare('SELECT * FROM judge_messages WHERE rep_id = ? ORDER BY seq')
    .all(rep.id) as MessageRow[];
  const messages = [
    { role: 'system', content: rep.system_prompt },
    ...rows.map((row) => message(row)),
  ];
  const verdict = parse(rep.final_verdict_json) ?? parse(rep.verdict_json);
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
    id: rep.item_id,
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
        input_tokens: rep.input_tokens,
        output_tokens: rep.output_tokens,
        total_tokens: rep.input_tokens + rep.output_tokens,
      },
    },
    scores,
    metadata: {
      cuelab_rep: rep.id,
      outcome: rep.outcome,
      condition: parse(rep.condition_json),
      simulated: rep.simulated === 1,
    },
    store: {},
    events: [],
    model_usage: {},
    role_usage: {},
    attachments: {},
    total_time: rep.duration_ms / 1000,
    uuid: rep.id,
  };
}

function message(row: MessageRow) {
  if (row.role === 'tool') {
    return {
      role: 'tool',
      content: row.content,
      tool_call_id: row.tool_call_id ?? '',
      function: row.tool_name ?? '',
      ...(row.is_error ? { error: { type: 'unknown', message: row.content } } : {}),
    };
  }
  const calls =
    (parse(row.tool_calls_json) as { id: string; name: string; input: unknown }[] | null) ?? [];
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
  const value = verdict as { kind?: string; outcome?: string; score?: number } | null;
  if (value?.kind === 'binary' && value.outcome) return value.outcome;
  if (value?.kind === 'graded' && typeof value.score === 'number') return String(value.score);
  if (value?.kind) return value.kind;
  return outcome;
}

function rationale(verdict: unknown): string | undefined {
  const value = verdict as { rationale?: unknown } | null;
  return typeof value?.rationale === 'string' ? value.rationale : undefined;
}

function itemGold(store: Store, suiteId: string, itemId: string): string | undefined {
  const row = store.db
    .prepare('SELECT body_json FROM suite_items WHERE suite_id = ? AND item_id = ?')
    .get(suiteId, itemId) as { body_json: string } | undefined;
  const gold = row ? (JSON.parse(row.body_json) as { gold?: unknown }).gold : undefined;
  return typeof gold === 'string' ? gold : undefined;
}

/** A readable name for a condition: uncued, or the cue's preset and direction. */
function conditionLabel(json: string): string {
  const condition = JSON.parse(json) as {
    cue?: { kind?: string; preset?: string };
    direction?: string;
    placement?: { kind?: string };
    mitigations?: { id?: string }[];
  };
  const parts = [
    condition.cue
      ? `${condition.cue.preset ?? condition.cue.kind ?? 'cue'}-${condition.direction ?? ''}`
      : 'uncued',
  ];
  if (condition.placement?.kind) parts.push(condition.placement.kind);
  for (const mitigation of condition.mitigations ?? [])
    if (mitigation.id) parts.push(mitigation.id);
  return parts.join('+');
}

function parse(value: string | null): unknown {
  return value === null ? null : (JSON.parse(value) as unknown);
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
