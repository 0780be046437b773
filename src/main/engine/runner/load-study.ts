import { studySpecSchema } from '../../../shared/study-spec';
import { EngineError } from '../errors';
import { type Store, getSuiteItem, getSuiteSettings, getSuiteTaxonomies } from '../store';
import type { StudyCondition } from './conditions';
import type { LoadedStudy } from './execute';

/** Loads a stored study with its items and conditions, for running or reporting. */
export function loadStudy(store: Store, studyId: string): LoadedStudy {
  const row = store.db.prepare('SELECT spec_json FROM studies WHERE id = ?').get(studyId) as
    { spec_json: string } | undefined;
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  const spec = studySpecSchema.parse(JSON.parse(row.spec_json));
  const conditions = (
    store.db
      .prepare('SELECT body_json FROM study_conditions WHERE study_id = ? ORDER BY position')
      .all(studyId) as { body_json: string }[]
  ).map((entry) => JSON.parse(entry.body_json) as StudyCondition);
  const itemIds = (
    store.db
      .prepare('SELECT item_id FROM study_items WHERE study_id = ? ORDER BY position')
      .all(studyId) as { item_id: string }[]
  ).map((entry) => entry.item_id);
  return {
    id: studyId,
    spec,
    conditions: new Map(conditions.map((condition) => [condition.key, condition])),
    items: new Map(itemIds.map((id) => [id, getSuiteItem(store, spec.suite, id)])),
    taxonomies: getSuiteTaxonomies(store, spec.suite),
    suiteBudget: getSuiteSettings(store, spec.suite).toolBudget,
  };
}

/** Resolves `latest` or an id prefix to a study id. */
export function resolveStudyId(store: Store, reference: string): string {
  if (reference === 'latest') {
    const row = store.db
      .prepare('SELECT id FROM studies ORDER BY created_at DESC, rowid DESC LIMIT 1')
      .get() as { id: string } | undefined;
    if (!row) throw new EngineError('not_found', 'There are no studies in this workspace yet.');
    return row.id;
  }
  const rows = store.db
    .prepare(`SELECT id FROM studies WHERE id = ? OR id LIKE ? || '%' OR name = ? LIMIT 3`)
    .all(reference, reference, reference) as { id: string }[];
  if (rows.length === 0) throw new EngineError('not_found', `There is no study "${reference}".`);
  if (rows.length > 1)
    throw new EngineError(
      'bad_request',
      `"${reference}" matches several studies; give more of the id.`,
    );
  return (rows[0] as { id: string }).id;
}
