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
 * running study is opened paused, so nothing starts by itself. Every row is tied to the
 * bundle's own study first (bundle-keys.ts): a row naming another study's id is re-keyed to
 * this one, a row naming a rep or job the bundle does not carry refuses the bundle.
 */
import { createHash } from 'node:crypto';
import { EngineError } from '../errors';
import { builtinSuiteIds } from '../suites';
import { inTransaction, type Store } from '../store';
import {
  insertAnnotators,
  insertBundleRows,
  readSuiteRows,
  repExists,
  studyName,
} from '../store/faces/bundles';
import { deleteStudy } from '../store/faces/studies';
import {
  BUNDLE_FORMAT,
  BUNDLE_TABLES,
  studyBundleSchema,
  type BundleRow,
  type BundleTableKey,
  type StudyBundle,
} from './bundle-format';
import { checkRowCount, jsonErrorMessage, MAX_INPUT_BYTES, readLimitedText } from '../input-limits';
import { ownedByBundleStudy } from './bundle-keys';
import { cueFamilySchema } from '../../../shared/cue-family';

/** Options of openBundle. */
export interface OpenBundleOptions {
  /** Replace a study with the same id instead of refusing. */
  replace?: boolean;
  /** Hears each step as it starts: `done` of `total` steps are behind it. */
  onStep?: (step: string, done: number, total: number) => void;
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

/**
 * Reads and validates a bundle file (gzipped or plain JSON, one gzip member or several, as
 * exportBundle writes it), refused past `maxBytes` on disk or once decompressed.
 */
export function readBundle(file: string, maxBytes = MAX_INPUT_BYTES): StudyBundle {
  const text = readLimitedText(file, file, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `${file} is not a CueLab study bundle: ${jsonErrorMessage(error)}.`,
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
  const stored = readSuiteRows(store, suiteId);
  return stored && suiteFingerprint(stored.suite, stored.items, stored.taxonomies);
}

/**
 * Puts the bundle's suite in the workspace under an id of its own: never merged
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
    insertBundleRows(store, 'suites', [{ ...suite, id: suiteId, origin: 'imported' }]);
    const under = (rows: readonly BundleRow[]) =>
      rows.map((row) => ({ ...row, suite_id: suiteId }));
    insertBundleRows(store, 'suite_items', under(suiteItems));
    insertBundleRows(store, 'suite_taxonomies', under(suiteTaxonomies));
    return { suiteId, created: true, itemsAdded: suiteItems.length };
  }
  throw new EngineError(
    'bad_request',
    `This workspace already has suites "${candidates.join('" and "')}" that differ from the bundle's suite. Open the bundle in another workspace.`,
  );
}

/** The study row's spec, which must be a JSON object (a bundle is a stranger's file). */
function bundleSpec(study: BundleRow): Record<string, unknown> {
  let spec: unknown;
  try {
    spec = JSON.parse(String(study.spec_json));
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `The bundle's studies row ${String(study.id)}: spec_json: not valid JSON (${(error as Error).message}).`,
    );
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw new EngineError(
      'bad_request',
      `The bundle's studies row ${String(study.id)}: spec_json: expected a JSON object.`,
    );
  checkBundleFamilies(study, (spec as { cueFamilies?: unknown }).cueFamilies);
  return { ...spec };
}

/**
 * The cue families a bundle's spec carries are a stranger's family files: each is checked as
 * `cuelab cues import` checks one (cue-family.ts), and the first fault is named by its field.
 */
function checkBundleFamilies(study: BundleRow, families: unknown): void {
  if (families === undefined) return;
  const where = `The bundle's studies row ${String(study.id)}: spec_json.cueFamilies`;
  if (!Array.isArray(families) || families.length > 100)
    throw new EngineError('bad_request', `${where}: expected a list of at most 100 cue families.`);
  for (const [index, family] of families.entries()) {
    const parsed = cueFamilySchema.safeParse(family);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    const field = [index, ...(issue?.path ?? [])].map(String).join('.');
    throw new EngineError(
      'bad_request',
      `${where}.${field}: ${issue?.message ?? 'not a cue family'} (a bundle's cue family is checked like an imported family file).`,
    );
  }
}

/** The bundle with its study and reps pointing at `suiteId` (the suite it was opened under). */
function pointAtSuite(bundle: StudyBundle, suiteId: string | undefined): StudyBundle {
  if (suiteId === undefined) return bundle;
  const study = bundle.tables.studies[0] as BundleRow;
  const spec = bundleSpec(study);
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
  insertBundleRows(store, 'studies', [
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
  for (const key of plain) insertBundleRows(store, BUNDLE_TABLES[key], tables[key]);
  const jobs = tables.jobs.map((job): BundleRow => ({
    ...job,
    state: job.state === 'running' ? 'queued' : (job.state ?? null),
    lease_id: null,
    lease_owner: null,
    lease_expires_at: null,
  }));
  const newIds = insertBundleRows(store, 'jobs', jobs, ['id']);
  const jobIds = new Map(tables.jobs.map((job, index) => [job.id, newIds[index]]));
  insertBundleRows(
    store,
    'provider_calls',
    tables.providerCalls.map((call) => ({ ...call, job_id: jobIds.get(call.job_id) ?? null })),
  );
  insertBundleRows(store, 'imported_reps', tables.importedReps);
  insertAnnotators(store, tables.annotators);
  insertBundleRows(store, 'mechanism_labels', tables.labels);
}

/** Opens a bundle file in this workspace (rules in the module comment). */
export function openBundle(
  store: Store,
  file: string,
  options: OpenBundleOptions = {},
): OpenBundleSummary {
  options.onStep?.('reading and checking the bundle', 0, 2);
  const read = readBundle(file);
  if (read.schemaVersion > store.schemaVersion)
    throw new EngineError(
      'schema_too_new',
      `${file} was written by a newer CueLab (schema ${read.schemaVersion}; this one knows up to ${store.schemaVersion}). Upgrade CueLab to open it.`,
    );
  const study = read.tables.studies[0];
  if (!study || study.id !== read.studyId)
    throw new EngineError('bad_request', `${file} holds no study row for study ${read.studyId}.`);
  // Every row under the bundle's own study: none may add to or change another study.
  const bundle = ownedByBundleStudy(read);
  const existing = studyName(store, bundle.studyId);
  if (existing !== undefined && !options.replace)
    throw new EngineError(
      'bad_request',
      `Study ${bundle.studyId} ("${existing}") is already in this workspace. Open the bundle with --replace to replace it, or leave the one you have.`,
    );
  let suite: ReturnType<typeof addSuite> = { suiteId: undefined, created: false, itemsAdded: 0 };
  const open = () => {
    if (existing !== undefined) deleteStudy(store, bundle.studyId);
    const clash = bundle.tables.reps.find((rep) => repExists(store, rep.id));
    if (clash)
      throw new EngineError(
        'bad_request',
        `Rep ${String(clash.id)} of the bundle is already in this workspace under another study.`,
      );
    suite = addSuite(store, bundle);
    insertStudy(store, pointAtSuite(bundle, suite.suiteId));
  };
  options.onStep?.(`storing ${bundle.tables.reps.length} reps`, 1, 2);
  try {
    // IMMEDIATE: the write lock is taken (waiting out another writer) before the first read,
    // so a writer committing meanwhile on another connection cannot void this one's snapshot.
    inTransaction(store, open, { immediate: true });
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
