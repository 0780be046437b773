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
import type { Store } from '../store';
import { engineVersion } from '../version';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleRow,
  type BundleTableKey,
  type StudyBundle,
} from './bundle-format';
import { redactSecrets, refuseKeyFields, secretValues } from '../secrets';

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

const REPS = 'SELECT id FROM judge_reps WHERE study_id = @study';
const JOBS = 'SELECT id FROM jobs WHERE study_id = @study';

/** The query selecting each table's rows of one study (`@study`, `@suite`). */
const QUERIES: Record<BundleTableKey, string> = {
  suites: 'SELECT * FROM suites WHERE id = @suite',
  suiteItems: `SELECT * FROM suite_items WHERE suite_id = @suite
    AND item_id IN (SELECT item_id FROM study_items WHERE study_id = @study) ORDER BY item_id`,
  suiteTaxonomies: 'SELECT * FROM suite_taxonomies WHERE suite_id = @suite ORDER BY taxonomy_id',
  studies: 'SELECT * FROM studies WHERE id = @study',
  studyItems: 'SELECT * FROM study_items WHERE study_id = @study ORDER BY position',
  studyConditions: 'SELECT * FROM study_conditions WHERE study_id = @study ORDER BY position',
  studyMajorities:
    'SELECT * FROM study_majorities WHERE study_id = @study ORDER BY item_id, judge_id',
  reps: 'SELECT * FROM judge_reps WHERE study_id = @study ORDER BY created_at, id',
  messages: `SELECT * FROM judge_messages WHERE rep_id IN (${REPS}) ORDER BY rep_id, seq`,
  turns: `SELECT * FROM judge_turns WHERE rep_id IN (${REPS}) ORDER BY rep_id, turn`,
  toolCalls: `SELECT * FROM judge_tool_calls WHERE rep_id IN (${REPS}) ORDER BY rep_id, seq`,
  jobs: 'SELECT * FROM jobs WHERE study_id = @study ORDER BY id',
  providerCalls: `SELECT * FROM provider_calls WHERE job_id IN (${JOBS}) ORDER BY job_id, seq`,
  importedReps: 'SELECT * FROM imported_reps WHERE study_id = @study ORDER BY line',
  annotators: `SELECT * FROM annotators WHERE 'human:' || name IN
    (SELECT source FROM mechanism_labels WHERE rep_id IN (${REPS})) ORDER BY name`,
  labels: `SELECT * FROM mechanism_labels WHERE rep_id IN (${REPS}) ORDER BY rep_id, source`,
  webRecordings: `SELECT * FROM judge_rep_web WHERE rep_id IN (${REPS}) ORDER BY rep_id`,
  dimensionGold: 'SELECT * FROM dimension_gold WHERE study_id = @study ORDER BY item_id, dimension',
};

function suiteOf(store: Store, studyId: string): string | null {
  const row = store.db.prepare('SELECT spec_json FROM studies WHERE id = ?').get(studyId) as
    { spec_json: string } | undefined;
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  const suite = (JSON.parse(row.spec_json) as { suite?: unknown }).suite;
  return typeof suite === 'string' ? suite : null;
}

/** The bundle of a study, as an object (secrets not yet scanned: exportBundle does that). */
export function buildBundle(store: Store, studyId: string): StudyBundle {
  const params = { study: studyId, suite: suiteOf(store, studyId) ?? '' };
  const tables = Object.fromEntries(
    (Object.keys(QUERIES) as BundleTableKey[]).map((key) => [
      key,
      store.db.prepare(QUERIES[key]).all(params) as BundleRow[],
    ]),
  ) as Record<BundleTableKey, BundleRow[]>;
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
  const secrets = secretValues(env);
  const first = redactSecrets(JSON.stringify(bundle), secrets);
  const text =
    first.redacted.length === 0
      ? first.text
      : redactSecrets(JSON.stringify({ ...bundle, redacted: first.redacted }), secrets).text;
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
