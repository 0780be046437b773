/**
 * A study's own rows: the `studies` row with its spec, its items and its conditions. Written
 * once when a study is created (the runner adds its first jobs in the same transaction) and
 * read back, checked, whenever it is run, reported or exported.
 */
import { z } from 'zod';
import type { StudyCondition } from '../../../shared/condition-keys';
import { cueSpecSchema, mitigationSpecSchema } from '../../../shared/cue-spec';
import { studySpecSchema, type StudySpec } from '../../../shared/study-spec';
import type { Store } from './database';
import { parseJsonColumn, readJsonRecordColumn } from './json-column';

/**
 * A stored condition body (runner/conditions.ts writes it). Loose, so a key a newer CueLab
 * adds is kept rather than dropped.
 */
const studyConditionSchema = z.looseObject({
  key: z.string().min(1),
  label: z.string(),
  cue: cueSpecSchema.nullable(),
  placement: z.string().nullable(),
  mitigations: z.array(mitigationSpecSchema),
  dimension: z.string().optional(),
});

/** A stored condition body, checked; a damaged one is an error naming study and key. */
export function parseConditionBody(studyId: string, key: string, text: string): StudyCondition {
  return parseJsonColumn(studyConditionSchema, text, {
    table: 'study_conditions',
    row: `${studyId}/${key}`,
    field: 'body_json',
  });
}

/** One item of a new study, in position order. */
export interface NewStudyItem {
  id: string;
  dataset: string;
  gold?: string | null | undefined;
}

/** A new study's rows (`createStudy` in the runner decides them). */
export interface NewStudy {
  id: string;
  spec: StudySpec;
  simulated: boolean;
  /** ISO time stamped as both created and updated. */
  now: string;
  items: readonly NewStudyItem[];
  conditions: readonly StudyCondition[];
}

/** Inserts a running study with its items and conditions (call inside inTransaction). */
export function insertStudyRows(store: Store, study: NewStudy): void {
  store.db
    .prepare(
      `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
       VALUES (?, ?, 'running', ?, ?, ?, ?)`,
    )
    .run(
      study.id,
      study.spec.name,
      JSON.stringify(study.spec),
      study.simulated ? 1 : 0,
      study.now,
      study.now,
    );
  const insertItem = store.db.prepare(
    'INSERT INTO study_items (study_id, item_id, position, dataset, gold) VALUES (?, ?, ?, ?, ?)',
  );
  study.items.forEach((item, position) =>
    insertItem.run(study.id, item.id, position, item.dataset, item.gold ?? null),
  );
  const insertCondition = store.db.prepare(
    'INSERT INTO study_conditions (study_id, key, position, label, body_json) VALUES (?, ?, ?, ?, ?)',
  );
  study.conditions.forEach((condition, position) =>
    insertCondition.run(
      study.id,
      condition.key,
      position,
      condition.label,
      JSON.stringify(condition),
    ),
  );
}

/** A stored run study: its checked spec, conditions in order and item ids in order. */
export interface StoredStudyDefinition {
  spec: StudySpec;
  conditions: StudyCondition[];
  itemIds: string[];
}

/** The definition of a run study; undefined when there is no such study. */
export function readStudyDefinition(
  store: Store,
  studyId: string,
): StoredStudyDefinition | undefined {
  const row = store.db.prepare('SELECT spec_json FROM studies WHERE id = ?').get(studyId) as
    { spec_json: string } | undefined;
  if (!row) return undefined;
  const spec = parseJsonColumn(studySpecSchema, row.spec_json, {
    table: 'studies',
    row: studyId,
    field: 'spec_json',
  });
  const conditionRows = store.db
    .prepare('SELECT key, body_json FROM study_conditions WHERE study_id = ? ORDER BY position')
    .all(studyId) as { key: string; body_json: string }[];
  const conditions = conditionRows.map((entry) =>
    parseConditionBody(studyId, entry.key, entry.body_json),
  );
  const itemRows = store.db
    .prepare('SELECT item_id FROM study_items WHERE study_id = ? ORDER BY position')
    .all(studyId) as { item_id: string }[];
  return { spec, conditions, itemIds: itemRows.map((entry) => entry.item_id) };
}

/**
 * A study's spec as a JSON object, unchecked beyond that: a run study's spec or an imported
 * study's (`kind: 'imported-results'`); undefined when there is no such study.
 */
export function readStudySpecRecord(
  store: Store,
  studyId: string,
): Record<string, unknown> | undefined {
  const text = store.db.prepare('SELECT spec_json FROM studies WHERE id = ?').pluck().get(studyId);
  if (typeof text !== 'string') return undefined;
  return readJsonRecordColumn(text, { table: 'studies', row: studyId, field: 'spec_json' });
}

/** The newest study's id, or undefined in an empty workspace. */
export function latestStudyId(store: Store): string | undefined {
  const id = store.db
    .prepare('SELECT id FROM studies ORDER BY created_at DESC, rowid DESC LIMIT 1')
    .pluck()
    .get();
  return typeof id === 'string' ? id : undefined;
}

/** Ids of up to three studies whose id, id prefix or name is `reference`. */
export function matchingStudyIds(store: Store, reference: string): string[] {
  return store.db
    .prepare(`SELECT id FROM studies WHERE id = ? OR id LIKE ? || '%' OR name = ? LIMIT 3`)
    .pluck()
    .all(reference, reference, reference) as string[];
}

/** A study's name, id and creation time; undefined when there is no such study. */
export function studyHeader(
  store: Store,
  studyId: string,
): { id: string; name: string; createdAt: string } | undefined {
  const row = store.db
    .prepare('SELECT id, name, created_at FROM studies WHERE id = ?')
    .get(studyId) as { id: string; name: string; created_at: string } | undefined;
  return row && { id: row.id, name: row.name, createdAt: row.created_at };
}

/** True when the study ran (or was imported) on the synthetic judge. */
export function studyIsSimulated(store: Store, studyId: string): boolean {
  return store.db.prepare('SELECT simulated FROM studies WHERE id = ?').pluck().get(studyId) === 1;
}

/** Deletes a study; the rows that reference it with ON DELETE CASCADE go with it. */
export function deleteStudy(store: Store, studyId: string): void {
  store.db.prepare('DELETE FROM studies WHERE id = ?').run(studyId);
}
