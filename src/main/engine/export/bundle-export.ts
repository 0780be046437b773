/**
 * Writing a study bundle (bundle-format.ts): the study, its spec and conditions, the suite items
 * it judged with their taxonomies, every rep with its exact prompt (system, tools, messages),
 * every model call and tool call, verdicts, jobs, the recorded provider responses, majorities,
 * imported records, and mechanism labels with their annotators. Secrets never enter: values of
 * secret-looking environment variables are redacted and key-named fields refuse the export
 * (secrets.ts). The file is streamed (bundle-stream.ts): memory does not grow with the study.
 */
import { EngineError } from '../errors';
import { MAX_INPUT_BYTES, MAX_INPUT_ROWS } from '../input-limits';
import { inTransaction, type Store } from '../store';
import { countBundleRows, iterateBundleRows, readBundleTables } from '../store/faces/bundles';
import { readStudySpecRecord } from '../store/faces/studies';
import { engineVersion } from '../version';
import {
  BUNDLE_FORMAT,
  BUNDLE_TABLES,
  BUNDLE_VERSION,
  type BundleRow,
  type BundleTableKey,
  type StudyBundle,
} from './bundle-format';
import { BundleFileWriter, BundleTooLarge } from './bundle-stream';
import { knownKeys, redactKeyText, redactSecrets, refuseKeyFields } from '../secrets';

/** Options of exportBundle. */
export interface ExportBundleOptions {
  /** Scanned for secret values; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Most bytes the bundle may hold once decompressed; default what openBundle opens. */
  maxBytes?: number;
  /** Most rows (all tables together); default what openBundle opens. */
  maxRows?: number;
  /** Hears how many of the study's rows are written: at the start, then every 10,000. */
  onRows?: (done: number, total: number) => void;
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

/** The bundle of a study, as one object in memory (tests and small studies; secrets not yet scanned). */
export function buildBundle(store: Store, studyId: string): StudyBundle {
  const tables: Record<BundleTableKey, BundleRow[]> = readBundleTables(
    store,
    studyId,
    suiteOf(store, studyId),
  );
  return { ...bundleHeader(store, studyId), redacted: [], tables };
}

/** What a bundle says of itself before its tables (its format, versions, study, when). */
function bundleHeader(store: Store, studyId: string): Omit<StudyBundle, 'tables' | 'redacted'> {
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    schemaVersion: store.schemaVersion,
    cuelabVersion: engineVersion,
    exportedAt: new Date().toISOString(),
    studyId,
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The refusal of a bundle `openBundle` would not open: it names the study, what was reached,
 * the limit, and the exports that do carry a study this large.
 */
function tooLargeForBundle(studyId: string, reached: string, limit: string): EngineError {
  return new EngineError(
    'bad_request',
    `Study ${studyId} is too large for one study bundle: ${reached}, and a bundle may hold at ` +
      `most ${limit} (open-bundle refuses larger ones). Nothing was written. Export the study ` +
      `as Inspect logs instead (cuelab export-inspect ${studyId} DIR: one log per judge and ` +
      `condition, written one at a time), or its mechanism labels as CSV ` +
      `(cuelab export-labels ${studyId}).`,
  );
}

/**
 * Writes a study's bundle to `file`: rows read from SQLite one at a time, each serialised and
 * redacted whole (a key inside a value is always within one row's text), and written gzipped
 * through `FILE.partial` (bundle-stream.ts), renamed once complete. A study whose bundle
 * `openBundle` would refuse (more rows, or more bytes once decompressed, than it opens) is
 * refused before a row is written when its row count shows it, else as soon as the bytes
 * pass the limit; either way no file and no partial file is left.
 */
export function exportBundle(
  store: Store,
  studyId: string,
  file: string,
  options: ExportBundleOptions = {},
): ExportBundleSummary {
  // One read transaction: every table is read at the same moment, so a study still running
  // cannot gain a rep's messages after its reps were read (openBundle would refuse those).
  return inTransaction(store, () => writeBundle(store, studyId, file, options));
}

function writeBundle(
  store: Store,
  studyId: string,
  file: string,
  options: ExportBundleOptions,
): ExportBundleSummary {
  const env = options.env ?? process.env;
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const maxRows = options.maxRows ?? MAX_INPUT_ROWS;
  const suiteId = suiteOf(store, studyId);
  const rows = countBundleRows(store, studyId, suiteId, maxRows + 1);
  if (rows > maxRows)
    throw tooLargeForBundle(studyId, `it has more than ${maxRows} rows`, `${maxRows} rows`);
  const secrets = knownKeys(env);
  const redacted = new Set<string>();
  const what = `the bundle of study ${studyId}`;
  // Each piece redacted as the whole text was: known key values (named), then key shapes.
  const clean = (text: string): string => {
    const found = redactSecrets(text, secrets);
    for (const name of found.redacted) redacted.add(name);
    // `secrets` holds every key redactKeyText knows and env's too, so those are gone already;
    // without env it reuses its key list instead of building it again for each row.
    const out = redactKeyText(found.text);
    refuseKeyFields(out, what);
    return out;
  };
  const header = bundleHeader(store, studyId);
  const writer = new BundleFileWriter(file, maxBytes);
  let written = 0;
  const counts = { reps: 0, labels: 0 };
  options.onRows?.(0, rows);
  try {
    writer.write(clean(JSON.stringify(header)).slice(0, -1));
    writer.write(',"tables":{');
    (Object.keys(BUNDLE_TABLES) as BundleTableKey[]).forEach((key, index) => {
      writer.write(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:[`);
      let first = true;
      for (const row of iterateBundleRows(store, studyId, suiteId, key)) {
        writer.write((first ? '' : ',') + clean(JSON.stringify(row)));
        first = false;
        written += 1;
        if (key === 'reps' || key === 'labels') counts[key] += 1;
        if (written % 10_000 === 0) options.onRows?.(written, rows);
      }
      writer.write(']');
    });
    // `redacted` comes last, once every row was scanned; a JSON object's order is not meaning.
    writer.write(`},"redacted":${JSON.stringify([...redacted])}}`);
    const bytes = writer.finish();
    return {
      file,
      studyId,
      bytes,
      reps: counts.reps,
      labels: counts.labels,
      redacted: [...redacted],
    };
  } catch (error) {
    writer.abandon();
    if (error instanceof BundleTooLarge)
      throw tooLargeForBundle(
        studyId,
        `its bundle passed ${mib(error.bytes)} once decompressed after ${written} of ${rows} rows`,
        mib(maxBytes),
      );
    throw error;
  }
}
