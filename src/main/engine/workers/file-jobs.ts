/**
 * The files worker's jobs (jobs.ts lists them): exports built, redacted and compressed, bundles
 * decompressed, checked and stored, runs and results files parsed and stored, each on the
 * worker's own connection. Writes keep their one transaction each, so a job that fails or is
 * cancelled stores nothing. The engine's thread publishes what changed once a job is done.
 *
 * Keys: the worker knows only its copy of the environment, so every job is handed the keys the
 * engine knows (its environment, the session's keys, those remembered) and remembers them here,
 * in memory, before it reads or writes: exports redact them, and the store's writes do too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { LabRequest, LabResponse } from '../../../shared/lab-api';
import type { importMethods } from '../../../shared/lab-api/import';
import { EngineError } from '../errors';
import {
  exportBundle,
  exportInspectLog,
  exportInspectLogs,
  type InspectLogFile,
  exportLabelsCsv,
  importLabelsCsv,
  labelSheetCsv,
  openBundle,
} from '../export';
import { MAX_NAMED_FILE_BYTES, readRegularFile } from '../input-limits';
import { importResultsFile } from '../reports';
import { rememberKeys, type SecretValue } from '../secrets';
import type { Store } from '../store';
import { saveSuite } from '../store/faces/suites';
import {
  importRuns,
  parseSuite,
  writeUploadPieces,
  type UploadPiece,
  type UploadWrite,
} from '../suites';
import { guardedStore, type CommitFlag } from './commit-flag';
import { duplicateSuites } from './import-duplicates';
import type { WorkerJobContext } from './jobs';

/** An importRuns request as the contract parsed it (defaults filled in). */
type ImportRunsRequest = z.output<typeof importMethods.importRuns.request>;

/**
 * What every file job is given besides its own input: the keys the engine knows, and the flag
 * a cancel and the job's commit race for (commit-flag.ts).
 */
export interface KeysInput {
  readonly keys: readonly SecretValue[];
  readonly commit: CommitFlag;
}

function learnKeys(input: KeysInput): void {
  for (const { name, value } of input.keys) rememberKeys({ [name]: value });
}

/** The worker's connection, its transactions refusing to commit once the job is cancelled. */
function writer(context: WorkerJobContext, input: KeysInput): Store {
  return guardedStore(context.store, input.commit);
}

/**
 * A study bundle, redacted and gzipped, as the exportBundle method answers: streamed into a
 * private file (bundle-export.ts, memory bounded whatever the study), then answered as bytes.
 * A study too large for a bundle is refused with the fix, and leaves no file.
 */
export function exportBundleJob(
  context: WorkerJobContext,
  input: KeysInput & { readonly studyId: string },
): LabResponse<'exportBundle'> {
  learnKeys(input);
  const { studyId } = input;
  context.progress({ done: 0, total: 1, step: 'reading the study' });
  const folder = mkdtempSync(join(tmpdir(), 'cuelab-bundle-out-'));
  try {
    const file = join(folder, 'bundle.json.gz');
    // Every key the engine holds (session keys too) is redacted, not only the environment's.
    const summary = exportBundle(context.store, studyId, file, {
      env: {},
      onRows: (done, total) =>
        context.progress({ done, total, step: 'writing rows, redacted and compressed' }),
    });
    const data = readFileSync(file);
    return {
      fileName: `cuelab-${studyId.slice(0, 8)}.cuelab-bundle.json.gz`,
      base64: data.toString('base64'),
      bytes: data.length,
      reps: summary.reps,
      labels: summary.labels,
      redacted: summary.redacted,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A study's Inspect logs (or only its log number `log`), as the exportInspect method answers. */
export function exportInspectJob(
  context: WorkerJobContext,
  input: KeysInput & {
    readonly studyId: string;
    readonly format: 'json' | 'eval';
    readonly log?: number;
  },
): LabResponse<'exportInspect'> {
  learnKeys(input);
  const { studyId, format, log: only } = input;
  // The exporter writes a folder; it writes a private one here, and the CLI the user's.
  const folder = mkdtempSync(join(tmpdir(), 'cuelab-inspect-'));
  try {
    context.progress({ done: 0, total: 1, step: 'reading the reps' });
    let written: InspectLogFile[];
    let count: number;
    if (only === undefined) {
      written = exportInspectLogs(context.store, studyId, folder, format, (done, total) =>
        context.progress({ done, total, step: 'writing logs' }),
      );
      count = written.length;
    } else {
      const one = exportInspectLog(context.store, studyId, folder, format, only);
      written = [one.log];
      count = one.count;
    }
    return {
      count,
      logs: written.map((log) => ({
        name: basename(log.file),
        ...(format === 'eval'
          ? { base64: readFileSync(log.file).toString('base64') }
          : { text: readFileSync(log.file, 'utf8') }),
        judge: log.judge,
        condition: log.condition,
        samples: log.samples,
      })),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A study's labels (or one annotator's sheet) as CSV, as the exportLabels method answers. */
export function exportLabelsJob(
  context: WorkerJobContext,
  input: KeysInput & LabRequest<'exportLabels'>,
): LabResponse<'exportLabels'> {
  learnKeys(input);
  const { store } = context;
  const text =
    input.sheet !== undefined
      ? labelSheetCsv(store, input.studyId, input.sheet)
      : exportLabelsCsv(store, input.studyId, { all: input.all ?? false });
  // CRLF rows after a header, the last one ended too.
  return { text, rows: text.split('\r\n').length - 2 };
}

/** Opens a bundle (a file's path, or inline base64) in one transaction of this connection. */
export function openBundleJob(
  context: WorkerJobContext,
  input: KeysInput & {
    readonly path?: string;
    readonly base64?: string;
    readonly replace?: boolean;
  },
): LabResponse<'openBundle'> {
  learnKeys(input);
  const open = (file: string): LabResponse<'openBundle'> => {
    const summary = openBundle(writer(context, input), file, {
      ...(input.replace ? { replace: true } : {}),
      onStep: (step, done, total) => context.progress({ done, total, step }),
    });
    return {
      studyId: summary.studyId,
      name: summary.name,
      reps: summary.reps,
      labels: summary.labels,
      replaced: summary.replaced,
      suiteCreated: summary.suiteCreated,
      itemsAdded: summary.itemsAdded,
    };
  };
  // A path (the CLI, the desktop shell, a streamed upload's temporary file) opens as is.
  if (input.path !== undefined) return open(input.path);
  const folder = mkdtempSync(join(tmpdir(), 'cuelab-bundle-'));
  try {
    const file = join(folder, 'bundle.json.gz');
    writeFileSync(file, Buffer.from(input.base64 ?? '', 'base64'));
    return open(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Another harness's per-rep verdicts stored as a study, as the importResults method answers. */
export function importResultsJob(
  context: WorkerJobContext,
  input: KeysInput & {
    readonly path: string;
    readonly name?: string;
    readonly format?: 'csv' | 'jsonl';
  },
): LabResponse<'importResults'> {
  learnKeys(input);
  context.progress({ done: 0, total: 1, step: 'reading and storing the results' });
  const summary = importResultsFile(writer(context, input), input.path, {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.format === undefined ? {} : { format: input.format }),
  });
  return { ...summary };
}

/** A CueLab suite file read, checked and stored (errors name the user's own path). */
export function importSuiteFileJob(
  context: WorkerJobContext,
  input: KeysInput & { readonly path: string; readonly name: string },
): { suiteId: string; items: number } {
  learnKeys(input);
  const what = `the suite file ${input.name}`;
  const text = readRegularFile(input.path, what, MAX_NAMED_FILE_BYTES).toString('utf8');
  const suite = parseSuite(text, input.name);
  saveSuite(writer(context, input), suite, 'imported');
  return { suiteId: suite.id, items: suite.items.length };
}

/** Reads runs at a path and, when asked, stores them as a suite (importRuns's rules). */
export function importRunsJob(
  context: WorkerJobContext,
  input: KeysInput & { readonly request: ImportRunsRequest },
): LabResponse<'importRuns'> {
  learnKeys(input);
  const { request } = input;
  const outcome = importRuns({
    path: request.path,
    format: request.format,
    ...(request.name ? { name: request.name } : {}),
    ...(request.tasksDir ? { tasksDir: request.tasksDir } : {}),
    ...(request.toolOutputLimit !== undefined ? { toolOutputLimit: request.toolOutputLimit } : {}),
    keepFlagged: request.keepFlagged ?? false,
    onRead: (read, files) => context.progress({ done: read, total: files, step: 'reading runs' }),
  });
  const duplicates = duplicateSuites(context.store, outcome.suite);
  if (request.save && duplicates.length > 0 && !request.allowDuplicate) {
    throw new EngineError(
      'bad_request',
      `${duplicates.join('; ')}. Nothing was stored. Import under that suite's name to ` +
        'replace it, or allow the duplicate (--allow-duplicate; in the window, "Import even if ' +
        'another suite holds these runs").',
    );
  }
  if (request.save) {
    context.progress({ done: 1, total: 1, step: 'storing the suite' });
    saveSuite(writer(context, input), outcome.suite, 'imported');
  }
  const digests = new Map(
    outcome.suite.items.map((item) => [item.id, item.provenance?.sha256 ?? '']),
  );
  return {
    suiteId: outcome.suite.id,
    suiteName: outcome.suite.name,
    saved: request.save,
    imported: outcome.imported.map((entry) => ({ ...entry, sha256: digests.get(entry.id) ?? '' })),
    skipped: outcome.skipped,
    warnings: [...duplicates, ...outcome.warnings],
  };
}

/** Human labels from a CSV file's text, all or nothing (bad rows named), as importLabels answers. */
export function importLabelsJob(
  context: WorkerJobContext,
  input: KeysInput & { readonly text: string; readonly name: string },
): LabResponse<'importLabels'> {
  learnKeys(input);
  context.progress({ done: 0, total: 1, step: 'checking and storing the labels' });
  return importLabelsCsv(writer(context, input), input.text, input.name);
}

/**
 * Pieces of an upload written into its staged folder (the engine's thread keeps the uploads
 * and their limits: suites/import/upload.ts); what a refused piece left is answered, not lost.
 */
export function uploadImportFilesJob(
  context: WorkerJobContext,
  input: KeysInput & { readonly upload: UploadWrite; readonly pieces: readonly UploadPiece[] },
): UploadWrite & { readonly refused?: { readonly message: string } } {
  learnKeys(input);
  const total = input.pieces.length;
  return writeUploadPieces(input.upload, input.pieces, (done) =>
    context.progress({ done, total, step: 'staging files' }),
  );
}
