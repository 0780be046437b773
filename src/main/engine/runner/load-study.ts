import { EngineError } from '../errors';
import { type Store } from '../store';
import { latestStudyId, matchingStudyIds, readStudyDefinition } from '../store/faces/studies';
import { getSuiteItem, getSuiteSettings, getSuiteTaxonomies } from '../store/faces/suites';
import type { LoadedStudy } from './execute';

/** Loads a stored study with its items and conditions, for running or reporting. */
export function loadStudy(store: Store, studyId: string): LoadedStudy {
  const stored = readStudyDefinition(store, studyId);
  if (!stored) throw new EngineError('not_found', `There is no study "${studyId}".`);
  const { spec, conditions, itemIds } = stored;
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
    const id = latestStudyId(store);
    if (id === undefined)
      throw new EngineError('not_found', 'There are no studies in this workspace yet.');
    return id;
  }
  const [first, ...others] = matchingStudyIds(store, reference);
  if (first === undefined) throw new EngineError('not_found', `There is no study "${reference}".`);
  if (others.length > 0)
    throw new EngineError(
      'bad_request',
      `"${reference}" matches several studies; give more of the id.`,
    );
  return first;
}
