/**
 * A bundle's rows tied to the one study it carries, before any is inserted. A bundle is a
 * stranger's file: its rows may name any study, rep or job id. Rows that belong to a study are
 * re-keyed to the bundle's own study (the `studyId` its header names and its studies row
 * holds), so a row claiming another study's id lands in this one instead; rows that belong to
 * a rep or a job must name one the bundle itself carries, else the bundle is refused, since
 * such a row would attach labels, messages or calls to a rep of another study.
 */
import { EngineError } from '../errors';
import type { BundleRow, BundleTableKey, StudyBundle } from './bundle-format';

/** Tables whose rows belong to a study through `study_id`. */
const STUDY_OWNED: readonly BundleTableKey[] = [
  'studyItems',
  'studyConditions',
  'studyMajorities',
  'reps',
  'jobs',
  'importedReps',
  'dimensionGold',
];

/** Tables whose rows belong to one of the bundle's reps through `rep_id`. */
const REP_OWNED: readonly BundleTableKey[] = [
  'messages',
  'turns',
  'toolCalls',
  'webRecordings',
  'labels',
];

function refuse(table: BundleTableKey, index: number, problem: string): EngineError {
  return new EngineError(
    'bad_request',
    `The bundle's ${table} row ${index + 1} ${problem}; a bundle may only hold rows of its own study. Nothing was stored.`,
  );
}

/**
 * The bundle with every study-owned row under `bundle.studyId`; throws naming the first row
 * that points at a rep or job the bundle does not carry.
 */
export function ownedByBundleStudy(bundle: StudyBundle): StudyBundle {
  const { tables, studyId } = bundle;
  const tablesOwned = { ...tables };
  for (const key of STUDY_OWNED)
    tablesOwned[key] = tables[key].map((row): BundleRow => ({ ...row, study_id: studyId }));
  const repIds = new Set(tables.reps.map((rep) => rep.id));
  if (repIds.size !== tables.reps.length)
    throw refuse('reps', tables.reps.length - 1, 'repeats a rep id');
  for (const key of REP_OWNED)
    tables[key].forEach((row, index) => {
      if (!repIds.has(row.rep_id ?? null))
        throw refuse(
          key,
          index,
          `names rep ${JSON.stringify(row.rep_id)}, which it does not carry`,
        );
    });
  tables.jobs.forEach((job, index) => {
    if (job.rep_id !== null && job.rep_id !== undefined && !repIds.has(job.rep_id))
      throw refuse(
        'jobs',
        index,
        `names rep ${JSON.stringify(job.rep_id)}, which it does not carry`,
      );
  });
  const jobIds = new Set(tables.jobs.map((job) => job.id));
  tables.providerCalls.forEach((call, index) => {
    if (!jobIds.has(call.job_id ?? null))
      throw refuse(
        'providerCalls',
        index,
        `names job ${JSON.stringify(call.job_id)}, which it does not carry`,
      );
  });
  return { ...bundle, tables: tablesOwned };
}
