/**
 * Opening a study bundle (bundle-format.ts) in this workspace: every row inserted in one
 * transaction, so a bundle opens whole or not at all; nothing is fetched, run or provisioned.
 *
 * Rules: a bundle written by a newer schema is refused. A study id already in the workspace is
 * refused with the fix (`replace` deletes the existing study and opens the bundle in its place,
 * so opening the same bundle twice is idempotent either way). The bundle's suite is never
 * merged into a suite of this workspace (built-in included): it is stored under its own id, or
 * renamed `ID~bundle-HASH` on a clash, and the study points at it (addSuite).
 * Job ids are renumbered for this workspace; leases are cleared, running jobs re-queued, and a
 * running study is opened paused, so nothing starts by itself.
 */
import { createHash } from 'node:crypto';
import { EngineError } from '../errors';
import { builtinSuiteIds } from '../suites';
import type { Store } from '../store';
import {
  BUNDLE_FORMAT,
  BUNDLE_TABLES,
  studyBundleSchema,
  type BundleRow,
  type BundleTableKey,
  type StudyBundle,
} from './bundle-format';
import { checkRowCount, readLimitedText } from '../input-limits';

/** Options of openBundle. */
export interface OpenBundleOptions {
  /** Replace a study with the same id instead of refusing. */
  replace?: boolean;
}

/** What opening did. */
export interface OpenBundleSummary {
  studyId: string;
  name: string;
  reps: number;
  labels: number;
  replaced: boolean;
  /** The id the study's suite has in this workspace (its own, or renamed on a clash). */
  suiteId: string | null;
  suiteCreated: boolean;
  itemsAdded: number;
}

/** Reads and validates a bundle file (gzipped or plain JSON). */
export function readBundle(file: string): StudyBundle {
  const text = readLimitedText(file, file);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `${file} is not a CueLab study bundle: ${(error as Error).message}.`,
    );
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BUNDLE_FORMAT)
    throw new EngineError(
      'bad_request',
      `${file} is not a CueLab study bundle (format ${JSON.stringify(format)}).`,
    );
  const tables = (value as { tables?: unknown }).tables;
  if (tables && typeof tables === 'object')
    checkRowCount(
      Object.values(tables).reduce<number>(
        (sum, rows) => sum + (Array.isArray(rows) ? rows.length : 0),
        0,
      ),
      file,
    );
  const parsed = studyBundleSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      'bad_request',
      `${file} is a damaged or unsupported study bundle: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}.`,
    );
  }
  return parsed.data;
}

function columnsOf(store: Store, table: string): Set<string> {
  const rows = store.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/** Inserts rows into a table, refusing columns the table does not have; returns rowids. */
function insertRows(
  store: Store,
  table: string,
  rows: readonly BundleRow[],
  skip: readonly string[] = [],
): number[] {
  const known = columnsOf(store, table);
  return rows.map((row) => {
    const columns = Object.keys(row).filter((column) => !skip.includes(column));
    const unknown = columns.find((column) => !known.has(column));
    if (unknown)
      throw new EngineError(
        'bad_request',
        `The bundle's ${table} rows have a column "${unknown}" this workspace does not know.`,
      );
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const result = store.db.prepare(sql).run(...columns.map((column) => row[column] ?? null));
    return Number(result.lastInsertRowid);
  });
}

/** What a suite is, minus where and when it was stored: equal fingerprints, equal suites. */
function suiteFingerprint(
  suite: BundleRow,
  items: readonly BundleRow[],
  taxonomies: readonly BundleRow[],
): string {
  const sorted = (rows: readonly BundleRow[], key: string) =>
    rows.map((row) => [String(row[key]), String(row.body_json)]).sort();
  return createHash('sha256')
    .update(
      JSON.stringify([
        suite.name ?? null,
        suite.description ?? null,
        suite.settings_json ?? null,
        sorted(items, 'item_id'),
        sorted(taxonomies, 'taxonomy_id'),
      ]),
    )
    .digest('hex');
}

function storedFingerprint(store: Store, suiteId: string): string | undefined {
  const suite = store.db.prepare('SELECT * FROM suites WHERE id = ?').get(suiteId) as
    BundleRow | undefined;
  if (!suite) return undefined;
  const rows = (table: string) =>
    store.db.prepare(`SELECT * FROM ${table} WHERE suite_id = ?`).all(suiteId) as BundleRow[];
  return suiteFingerprint(suite, rows('suite_items'), rows('suite_taxonomies'));
}

/**
 * Puts the bundle's suite in the workspace under an id of its own (issue 10 #3): never merged
 * into an existing suite, never under a built-in id. Its own id when free (or holding exactly
 * this suite, as when the same bundle is opened again), else `ID~bundle-HASH`, HASH from its
 * content. Every suite row of the bundle is written under that id, whatever suite_id it named.
 */
function addSuite(
  store: Store,
  bundle: StudyBundle,
): { suiteId: string | undefined; created: boolean; itemsAdded: number } {
  const [suite] = bundle.tables.suites;
  if (!suite) return { suiteId: undefined, created: false, itemsAdded: 0 };
  const { suiteItems, suiteTaxonomies } = bundle.tables;
  const fingerprint = suiteFingerprint(suite, suiteItems, suiteTaxonomies);
  const ownId = String(suite.id);
  const candidates = [`${ownId}~bundle-${fingerprint.slice(0, 10)}`];
  if (!(builtinSuiteIds as readonly string[]).includes(ownId)) candidates.unshift(ownId);
  for (const suiteId of candidates) {
    const stored = storedFingerprint(store, suiteId);
    if (stored === fingerprint) return { suiteId, created: false, itemsAdded: 0 };
    if (stored !== undefined) continue;
    insertRows(store, 'suites', [{ ...suite, id: suiteId, origin: 'imported' }]);
    const under = (rows: readonly BundleRow[]) =>
      rows.map((row) => ({ ...row, suite_id: suiteId }));
    insertRows(store, 'suite_items', under(suiteItems));
    insertRows(store, 'suite_taxonomies', under(suiteTaxonomies));
    return { suiteId, created: true, itemsAdded: suiteItems.length };
  }
  throw new EngineError(
    'bad_request',
    `This workspace already has suites "${candidates.join('" and "')}" that differ from the bundle's suite. Open the bundle in another workspace.`,
  );
}

/** The bundle with its study and reps pointing at `suiteId` (the suite it was opened under). */
function pointAtSuite(bundle: StudyBundle, suiteId: string | undefined): StudyBundle {
  if (suiteId === undefined) return bundle;
  const study = bundle.tables.studies[0] as BundleRow;
  const spec = JSON.parse(String(study.spec_json)) as Record<string, unknown>;
  return {
    ...bundle,
    tables: {
      ...bundle.tables,
      studies: [{ ...study, spec_json: JSON.stringify({ ...spec, suite: suiteId }) }],
      reps: bundle.tables.reps.map((rep) => ({ ...rep, suite_id: suiteId })),
    },
  };
}

function insertStudy(store: Store, bundle: StudyBundle): void {
  const { tables } = bundle;
  const study = tables.studies[0] as BundleRow;
  const running = study.status === 'running' || study.status === 'queued';
  insertRows(store, 'studies', [
    running
      ? {
          ...study,
          status: 'paused',
          paused_reason: 'opened from a bundle; resume to run its remaining jobs here',
        }
      : study,
  ]);
  const plain: BundleTableKey[] = [
    'studyItems',
    'studyConditions',
    'studyMajorities',
    'reps',
    'messages',
    'turns',
    'toolCalls',
    'webRecordings',
    'dimensionGold',
  ];
  for (const key of plain) insertRows(store, BUNDLE_TABLES[key], tables[key]);
  const jobs = tables.jobs.map((job): BundleRow => ({
    ...job,
    state: job.state === 'running' ? 'queued' : (job.state ?? null),
    lease_id: null,
    lease_owner: null,
    lease_expires_at: null,
  }));
  const newIds = insertRows(store, 'jobs', jobs, ['id']);
  const jobIds = new Map(tables.jobs.map((job, index) => [job.id, newIds[index]]));
  insertRows(
    store,
    'provider_calls',
    tables.providerCalls.map((call) => ({ ...call, job_id: jobIds.get(call.job_id) ?? null })),
  );
  insertRows(store, 'imported_reps', tables.importedReps);
  const annotator = store.db.prepare(
    'INSERT INTO annotators (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
  );
  for (const row of tables.annotators) annotator.run(row.name, row.created_at);
  insertRows(store, 'mechanism_labels', tables.labels);
}

/** Opens a bundle file in this workspace (rules in the module comment). */
export function openBundle(
  store: Store,
  file: string,
  options: OpenBundleOptions = {},
): OpenBundleSummary {
  const bundle = readBundle(file);
  if (bundle.schemaVersion > store.schemaVersion)
    throw new EngineError(
      'schema_too_new',
      `${file} was written by a newer CueLab (schema ${bundle.schemaVersion}; this one knows up to ${store.schemaVersion}). Upgrade CueLab to open it.`,
    );
  const study = bundle.tables.studies[0];
  if (!study || study.id !== bundle.studyId)
    throw new EngineError('bad_request', `${file} holds no study row for study ${bundle.studyId}.`);
  const existing = store.db.prepare('SELECT name FROM studies WHERE id = ?').get(bundle.studyId) as
    { name: string } | undefined;
  if (existing && !options.replace)
    throw new EngineError(
      'bad_request',
      `Study ${bundle.studyId} ("${existing.name}") is already in this workspace. Open the bundle with --replace to replace it, or leave the one you have.`,
    );
  let suite: ReturnType<typeof addSuite> = { suiteId: undefined, created: false, itemsAdded: 0 };
  const open = store.db.transaction(() => {
    if (existing) store.db.prepare('DELETE FROM studies WHERE id = ?').run(bundle.studyId);
    const clash = bundle.tables.reps.find((rep) =>
      store.db.prepare('SELECT 1 FROM judge_reps WHERE id = ?').get(rep.id),
    );
    if (clash)
      throw new EngineError(
        'bad_request',
        `Rep ${String(clash.id)} of the bundle is already in this workspace under another study.`,
      );
    suite = addSuite(store, bundle);
    insertStudy(store, pointAtSuite(bundle, suite.suiteId));
  });
  try {
    open();
  } catch (error) {
    if (error instanceof EngineError) throw error;
    // A row the schema refuses (a missing field, a wrong type, a dangling reference): the
    // transaction rolled back, so the workspace is as it was.
    throw new EngineError(
      'bad_request',
      `${file} is a damaged study bundle: ${(error as Error).message}. Nothing was stored.`,
    );
  }
  return {
    studyId: bundle.studyId,
    name: String(study.name),
    reps: bundle.tables.reps.length,
    labels: bundle.tables.labels.length,
    replaced: existing !== undefined,
    suiteId: suite.suiteId ?? null,
    suiteCreated: suite.created,
    itemsAdded: suite.itemsAdded,
  };
}
