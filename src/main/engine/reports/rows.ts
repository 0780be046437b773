/**
 * A study's reps as analysis rows (analysis/types.ts `JudgeRepRow`), the one input of every
 * table: native studies from their finished jobs and stored reps, imported studies from their
 * imported records. One query per study (plus its conditions), so the paper's scale (70,000
 * reps, App. R) reads in one pass.
 */
import type { JudgeRepRow } from '../analysis';
import { EngineError } from '../errors';
import { type Store } from '../store';
import { eachNativeAnalysisRecord, readConditionBodies } from '../store/faces/reps';
import { readImportedAnalysisRecords, readStudyHeader } from '../store/faces/studies';
import { cachedImportedRows, cachedNativeRows } from './row-cache';
import {
  describe,
  directionOf,
  nativeAnalysisRow,
  numberOf,
  textOf,
  verdictOf,
  withTaxonomySizes,
  type ConditionFields,
} from './row-mapping';

/** What a report needs to know about the study itself. */
export interface StudyHeader {
  readonly id: string;
  readonly name: string;
  readonly origin: 'native' | 'imported';
  readonly status: string;
  readonly simulated: boolean;
}

/** The study's name, origin and status; throws not_found. */
export function studyHeader(store: Store, studyId: string): StudyHeader {
  const row = readStudyHeader(store, studyId);
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  return { ...row, simulated: row.simulated === 1 };
}

/**
 * Every finished rep of a study as analysis rows, kept per open workspace and brought up to
 * date with the reps landed since the last call (row-cache.ts); equal to `readStudyRows`.
 */
export function studyRows(store: Store, studyId: string): JudgeRepRow[] {
  const header = studyHeader(store, studyId);
  return header.origin === 'imported'
    ? cachedImportedRows(store, studyId, () => importedRows(store, studyId))
    : cachedNativeRows(store, studyId);
}

/** Every finished rep of a study as analysis rows, read in full (no cache). */
export function readStudyRows(store: Store, studyId: string): JudgeRepRow[] {
  const header = studyHeader(store, studyId);
  return header.origin === 'imported' ? importedRows(store, studyId) : nativeRows(store, studyId);
}

function nativeRows(store: Store, studyId: string): JudgeRepRow[] {
  const conditions = new Map<string, ConditionFields>(
    readConditionBodies(store, studyId).map((row) => [row.key, describe(row.condition)]),
  );
  const rows: JudgeRepRow[] = [];
  for (const record of eachNativeAnalysisRecord(store, studyId))
    rows.push(nativeAnalysisRow(record, conditions));
  return withTaxonomySizes(rows);
}

function importedRows(store: Store, studyId: string): JudgeRepRow[] {
  const rows = readImportedAnalysisRecords(store, studyId);
  return rows.map((row) => ({
    itemId: row.item_id,
    dataset: row.dataset,
    judge: row.judge,
    condition: row.condition,
    cueDirection: directionOf(row.cue_direction),
    rep: row.rep,
    verdict: verdictOf(row.verdict),
    score: numberOf(row.score),
    gold: verdictOf(row.gold),
    dimension: row.dimension,
    turns: numberOf(row.turns),
    simulated: row.simulated === 1,
    categoriesPresent: numberOf(row.categories_present),
    taxonomySize: numberOf(row.taxonomy_size),
    placement: textOf(row.placement),
    mitigation: textOf(row.mitigation),
    cueLabel: textOf(row.cue_label),
  }));
}
