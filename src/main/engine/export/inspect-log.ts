/**
 * `cuelab export-inspect STUDY DIR`: a study's reps as Inspect AI logs, so
 * `inspect view DIR` opens CueLab results. One log (`.json`, Inspect log format version 2, or
 * Inspect's zipped `.eval`, see inspect-eval.ts) per judge and condition; each rep is a sample
 * (id = item, epoch = rep number) whose messages and events are the judge's exact transcript
 * (inspect-sample.ts, inspect-events.ts), with its verdict as a score and, where the item has
 * one, a second score saying whether the verdict matches the gold label. A study made by
 * `import-results` has no transcripts; its samples hold what it has.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../errors';
import { redactKeyJson } from '../secrets';
import { type Store } from '../store';
import { readStoredRep, repMessages, studyStoredRepKeys } from '../store/faces/reps';
import {
  readImportedAnalysisRecords,
  readStudyHeader,
  readStudySpecRecord,
  studyHeader,
  studyJobStates,
  studyRepJobs,
} from '../store/faces/studies';
import { suiteItemGold } from '../store/faces/suites';
import { engineVersion } from '../version';
import { inspectEvalArchive, type InspectLogShape } from './inspect-eval';
import { fields, importedSample, nativeSample, text, type ExportSample } from './inspect-sample';

/** One log written. */
export interface InspectLogFile {
  file: string;
  judge: string;
  condition: string;
  samples: number;
}

/** The two files Inspect reads: its JSON log, or its default zipped `.eval`. */
export type InspectLogFormat = 'json' | 'eval';

/** The reps of one judge under one condition: one log. */
interface ExportGroup {
  /** The study's judge id (an imported study: the file's judge name). */
  judge: string;
  /** `provider/model` as Inspect names a model. */
  model: string;
  baseUrl?: string;
  condition: string;
  dataset: string;
  simulated: boolean;
  /** How many samples the log holds. */
  size: number;
  /**
   * The log's samples, read when its log is written: a study's transcripts are read one log
   * at a time, so an export never holds more than one log's messages.
   */
  readSamples: () => ExportSample[];
}

/**
 * Writes the study's reps as Inspect logs into `folder`; returns what it wrote. `onLog` hears
 * how many of the logs are written (the files worker reports it to whoever waits).
 */
export function exportInspectLogs(
  store: Store,
  studyId: string,
  folder: string,
  format: InspectLogFormat = 'json',
  onLog?: (written: number, total: number) => void,
): InspectLogFile[] {
  const { study, groups } = studyLogGroups(store, studyId);
  mkdirSync(folder, { recursive: true });
  const written: InspectLogFile[] = [];
  onLog?.(0, groups.length);
  for (const group of groups) {
    written.push(writeGroupLog(study, group, folder, format));
    onLog?.(written.length, groups.length);
  }
  return written;
}

/**
 * Writes only the study's log number `index` (in the order `exportInspectLogs` writes them)
 * into `folder`, and says how many logs the study has: a caller takes a large study's logs one
 * request at a time.
 */
export function exportInspectLog(
  store: Store,
  studyId: string,
  folder: string,
  format: InspectLogFormat,
  index: number,
): { log: InspectLogFile; count: number } {
  const { study, groups } = studyLogGroups(store, studyId);
  const group = groups[index];
  if (!group)
    throw new EngineError(
      'bad_request',
      `Study ${studyId} has ${String(groups.length)} Inspect log(s), numbered from 0; there is no log ${String(index)}.`,
    );
  mkdirSync(folder, { recursive: true });
  return { log: writeGroupLog(study, group, folder, format), count: groups.length };
}

type StudyHeader = NonNullable<ReturnType<typeof studyHeader>>;

/** The study and its logs' groups, their samples not read yet. */
function studyLogGroups(
  store: Store,
  studyId: string,
): { study: StudyHeader; groups: ExportGroup[] } {
  const study = studyHeader(store, studyId);
  if (!study)
    throw new EngineError('not_found', `There is no study "${studyId}" in this workspace.`);
  const imported = readStudyHeader(store, studyId)?.origin === 'imported';
  const groups = imported
    ? importedGroups(store, studyId, study.createdAt)
    : nativeGroups(store, studyId);
  if (groups.length === 0) throw new EngineError('bad_request', nothingToExport(store, studyId));
  return { study, groups };
}

/** One group's log, written into `folder`. */
function writeGroupLog(
  study: StudyHeader,
  group: ExportGroup,
  folder: string,
  format: InspectLogFormat,
): InspectLogFile {
  const key = `${group.judge}\u0000${group.condition}`;
  // The one place keys are redacted from Inspect logs: both formats are written from `log`.
  const log = redactKeyJson(buildLog(study, group, group.readSamples()));
  const id = createHash('sha256').update(`${study.id}/${key}`).digest('hex').slice(0, 22);
  const stamp = study.createdAt.replace(/[:.]/g, '-');
  const name = `${slug(study.name)}-${slug(group.judge)}-${slug(group.condition)}`;
  const file = join(folder, `${stamp}_${name}_${id}.${format}`);
  writeFileSync(
    file,
    format === 'eval' ? inspectEvalArchive(log) : `${JSON.stringify(log, null, 2)}\n`,
  );
  return { file, judge: group.judge, condition: group.condition, samples: log.samples.length };
}

/** Why a study has no log to write: still running, every job failed, or nothing run. */
function nothingToExport(store: Store, studyId: string): string {
  const states = studyJobStates(store, studyId);
  const open = (states.queued ?? 0) + (states.running ?? 0);
  const failed = states.failed ?? 0;
  if (open > 0)
    return `Study ${studyId} has no reps yet: ${open} job(s) are still queued or running.`;
  if (failed > 0)
    return `Study ${studyId} has nothing to export: all ${failed} of its job(s) failed without a rep. See why with: cuelab status ${studyId}`;
  return `Study ${studyId} has nothing to export: it has no reps.`;
}

/** The judges of the study's spec, by id: the model they name and their endpoint. */
function specJudges(store: Store, studyId: string): Map<string, Record<string, unknown>> {
  const judges = fields(readStudySpecRecord(store, studyId)).judges;
  const list = Array.isArray(judges) ? judges.map(fields) : [];
  return new Map(list.map((judge) => [text(judge.id) ?? '', judge]));
}

/** A run study's reps, one group per judge × condition, epoch = the rep number. */
function nativeGroups(store: Store, studyId: string): ExportGroup[] {
  const jobs = studyRepJobs(store, studyId);
  const judges = specJudges(store, studyId);
  // An item's gold label is looked up once, when a log with its reps is written.
  const gold = new Map<string, string | undefined>();
  const itemGold = (suiteId: string, itemId: string): string | undefined => {
    const key = `${suiteId}\u0000${itemId}`;
    if (!gold.has(key)) gold.set(key, suiteItemGold(store, suiteId, itemId));
    return gold.get(key);
  };
  const groups = new Map<
    string,
    { group: ExportGroup; reps: NativeEntry[]; seen: Map<string, number> }
  >();
  // A narrow pass groups the reps; each rep's row and messages are read as its log is written.
  for (const rep of studyStoredRepKeys(store, studyId)) {
    const job = jobs.get(rep.id);
    const judge = job?.judgeId ?? `${rep.provider}/${rep.model}`;
    const condition = conditionLabel(rep.condition);
    const key = `${judge}\u0000${condition}`;
    let entry = groups.get(key);
    if (!entry) {
      const baseUrl = text(judges.get(judge)?.baseUrl);
      const reps: NativeEntry[] = [];
      entry = {
        group: {
          judge,
          model: `${rep.provider}/${rep.model}`,
          ...(baseUrl ? { baseUrl } : {}),
          condition,
          dataset: rep.suiteId,
          simulated: false,
          size: 0,
          // Each rep's messages are read as its log is written, not before.
          readSamples: () =>
            reps.map(({ repId, epoch, suiteId, itemId }) =>
              nativeSample(
                storedRep(store, repId),
                repMessages(store, repId),
                epoch,
                itemGold(suiteId, itemId),
              ),
            ),
        },
        reps,
        seen: new Map(),
      };
      groups.set(key, entry);
    }
    const seen = (entry.seen.get(rep.itemId) ?? 0) + 1;
    entry.seen.set(rep.itemId, seen);
    entry.reps.push({
      repId: rep.id,
      epoch: job?.rep ?? seen,
      suiteId: rep.suiteId,
      itemId: rep.itemId,
    });
    entry.group.size += 1;
    entry.group.simulated ||= rep.simulated;
  }
  return [...groups.values()].map((entry) => entry.group);
}

/** A rep of a log to be written: its id, its epoch and its item. */
interface NativeEntry {
  readonly repId: string;
  readonly epoch: number;
  readonly suiteId: string;
  readonly itemId: string;
}

/** A rep's stored row, read as its log is written (a rep removed meanwhile is named). */
function storedRep(store: Store, repId: string): NonNullable<ReturnType<typeof readStoredRep>> {
  const rep = readStoredRep(store, repId);
  if (!rep)
    throw new EngineError(
      'not_found',
      `Rep ${repId} was removed while its study was exported; export it again.`,
    );
  return rep;
}

/** An `import-results` study: results only, one group per judge × condition. */
function importedGroups(store: Store, studyId: string, createdAt: string): ExportGroup[] {
  const groups = new Map<string, { group: ExportGroup; samples: ExportSample[] }>();
  readImportedAnalysisRecords(store, studyId).forEach((record, index) => {
    const condition = record.cue_direction
      ? `${record.condition}-${record.cue_direction}`
      : record.condition;
    const key = `${record.judge}\u0000${condition}`;
    let entry = groups.get(key);
    if (!entry) {
      // Imported results hold no transcripts: their samples are small, made as they are read.
      const samples: ExportSample[] = [];
      entry = {
        group: {
          judge: record.judge,
          model: record.judge,
          condition,
          dataset: record.dataset,
          simulated: false,
          size: 0,
          readSamples: () => samples,
        },
        samples,
      };
      groups.set(key, entry);
    }
    entry.samples.push(importedSample(record, createdAt, index + 1));
    entry.group.size += 1;
    entry.group.simulated ||= record.simulated === 1;
  });
  return [...groups.values()].map((entry) => entry.group);
}

function buildLog(
  study: { id: string; name: string; createdAt: string },
  group: ExportGroup,
  samples: readonly ExportSample[],
): InspectLogShape {
  const { judge, condition, simulated } = group;
  // Inspect keys a sample by (id, epoch) and the .eval holds one entry per sample: two reps
  // under one key would merge in the viewer and leave a transcript no one can open.
  const keys = new Set<string>();
  for (const { sample } of samples) {
    const key = `${sample.id}_epoch_${sample.epoch}`;
    if (keys.has(key)) {
      throw new EngineError(
        'internal',
        `Two reps of ${judge} under ${condition} are both sample ${sample.id} epoch ` +
          `${sample.epoch}; nothing was exported for this log.`,
      );
    }
    keys.add(key);
  }
  const scorers = [...new Set(samples.flatMap((entry) => Object.keys(entry.scores)))];
  const items = new Set(samples.map((entry) => entry.sample.id));
  const epochs = Math.max(1, ...samples.map((entry) => entry.sample.epoch));
  const times = samples.map((entry) => entry.createdAt).sort();
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
      task_id: `${study.id}-${slug(judge)}-${slug(condition)}`,
      task_version: 0,
      task_attribs: {},
      task_args: {},
      task_args_passed: {},
      dataset: { name: group.dataset, samples: items.size },
      model: group.model,
      ...(group.baseUrl ? { model_base_url: group.baseUrl } : {}),
      model_generate_config: {},
      model_args: {},
      config: { epochs },
      // CueLab ships as a package, not a checkout: the revision is its released version.
      revision: { type: 'git', origin: 'cuelab', commit: engineVersion, dirty: false },
      packages: { cuelab: engineVersion },
      metadata: { cuelab_study: study.id, judge, condition, simulated },
    },
    plan: {
      name: 'plan',
      steps: [{ solver: 'cuelab_judge', params: { condition }, params_passed: { condition } }],
      config: {},
    },
    results: {
      total_samples: samples.length,
      completed_samples: samples.length,
      scores: scorers.map((name) => scoreSummary(name, samples)),
    },
    stats: {
      started_at: times[0] ?? study.createdAt,
      completed_at: times.at(-1) ?? study.createdAt,
      model_usage: {
        [group.model]: {
          input_tokens: sum(samples, (entry) => entry.inputTokens),
          output_tokens: sum(samples, (entry) => entry.outputTokens),
          total_tokens: sum(samples, (entry) => entry.inputTokens + entry.outputTokens),
        },
      },
      role_usage: {},
      connection_limit_history: [],
    },
    invalidated: false,
    // The synthetic judge is a simulation: its logs say so where the viewer lists them.
    tags: simulated ? ['SIMULATED'] : [],
    metadata: {},
    samples: samples.map((entry) => entry.sample),
  };
}

/**
 * A scorer's line in `results.scores`: matches_gold's accuracy (share C), and for the verdict
 * the share of pass verdicts among the samples it scored.
 */
function scoreSummary(name: string, samples: readonly ExportSample[]) {
  const values = samples.flatMap((entry) => {
    const score = entry.scores[name];
    return score ? [score.value] : [];
  });
  const [metric, hit] = name === 'matches_gold' ? ['accuracy', 'C'] : ['pass_rate', 'pass'];
  const value = values.length ? values.filter((entry) => entry === hit).length / values.length : 0;
  return {
    name,
    scorer: name,
    params: {},
    scored_samples: values.length,
    metrics: { [metric]: { name: metric, value, params: {} } },
  };
}

/** A readable name for a condition: uncued, or the cue's preset and direction. */
function conditionLabel(condition: Record<string, unknown>): string {
  const cue = fields(condition.cue);
  const parts = [
    condition.cue
      ? `${text(cue.preset) ?? text(cue.kind) ?? 'cue'}-${text(condition.direction) ?? ''}`
      : 'uncued',
  ];
  // A condition names its placement ('system', 'assistant-x2'…); older records an object.
  const placement =
    typeof condition.placement === 'string'
      ? condition.placement
      : text(fields(condition.placement).kind);
  if (placement) parts.push(placement);
  const mitigations = Array.isArray(condition.mitigations) ? condition.mitigations : [];
  for (const mitigation of mitigations) {
    const id = text(fields(mitigation).id);
    if (id) parts.push(id);
  }
  return parts.join('+');
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
