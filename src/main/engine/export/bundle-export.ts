/**
 * Writing a study bundle (bundle-format.ts): the study, its spec and conditions, the suite items
 * it judged with their taxonomies, every rep with its exact prompt (system, tools, messages),
 * every model call and tool call, verdicts, jobs, the recorded provider responses, majorities,
 * imported records, and mechanism labels with their annotators. Secrets never enter: values of
 * secret-looking environment variables are redacted and key-named fields refuse the export
 * (secrets.ts).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { EngineError } from '../errors';
import { type Store } from '../store';
import { readBundleTables } from '../store/faces/bundles';
import { readStudySpecRecord } from '../store/faces/studies';
import { engineVersion } from '../version';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleRow,
  type BundleTableKey,
  type StudyBundle,
} from './bundle-format';
import { knownKeys, redactKeyText, redactSecrets, refuseKeyFields } from '../secrets';

/** Options of exportBundle. */
export interface ExportBundleOptions {
  /** Scanned for secret values; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What was written. */
export interface ExportBundleSummary {
  file: string;
  studyId: string;
  bytes: number;
  reps: number;
  labels: number;
  /** Environment variables whose values were found in the study and redacted. */
  redacted: string[];
}

function suiteOf(store: Store, studyId: string): string | null {
  const spec = readStudySpecRecord(store, studyId);
  if (!spec) throw new EngineError('not_found', `There is no study "${studyId}".`);
  return typeof spec.suite === 'string' ? spec.suite : null;
}

/** The bundle of a study, as an object (secrets not yet scanned: exportBundle does that). */
export function buildBundle(store: Store, studyId: string): StudyBundle {
  const tables: Record<BundleTableKey, BundleRow[]> = readBundleTables(
    store,
    studyId,
    suiteOf(store, studyId),
  );
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    schemaVersion: store.schemaVersion,
    cuelabVersion: engineVersion,
    exportedAt: new Date().toISOString(),
    studyId,
    redacted: [],
    tables,
  };
}

/** The bundle as JSON text with secrets redacted; throws when a key-named field is present. */
export function bundleText(
  bundle: StudyBundle,
  env: Readonly<Record<string, string | undefined>>,
): { text: string; redacted: string[] } {
  const first = redactSecrets(JSON.stringify(bundle), knownKeys(env));
  // Redacted again whole: known keys and anything shaped like a key, variable set or not.
  const text = redactKeyText(
    first.redacted.length === 0
      ? JSON.stringify(bundle)
      : JSON.stringify({ ...bundle, redacted: first.redacted }),
    env,
  );
  refuseKeyFields(text, `the bundle of study ${bundle.studyId}`);
  return { text, redacted: first.redacted };
}

/** Writes a study's bundle to `file` (gzipped JSON, written whole or not at all). */
export function exportBundle(
  store: Store,
  studyId: string,
  file: string,
  options: ExportBundleOptions = {},
): ExportBundleSummary {
  const bundle = buildBundle(store, studyId);
  const { text, redacted } = bundleText(bundle, options.env ?? process.env);
  const data = gzipSync(Buffer.from(text, 'utf8'));
  const partial = `${file}.partial`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, file);
  } catch (error) {
    throw new EngineError('bad_request', `Cannot write ${file}: ${(error as Error).message}.`);
  }
  return {
    file,
    studyId,
    bytes: data.length,
    reps: bundle.tables.reps.length,
    labels: bundle.tables.labels.length,
    redacted,
  };
}
