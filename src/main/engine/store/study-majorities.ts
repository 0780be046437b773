import { uncuedKey } from '../../../shared/condition-keys';
import type { Store } from './database';

/** An uncued arm of one item and judge (one dimension's control). */
export interface UncuedArm {
  itemId: string;
  judgeId: string;
  conditionKey: string;
}

/**
 * The uncued arms of a study whose jobs have all ended but whose majority was never fixed
 * (a runner died in between). A condition without its own dimension is the study's
 * `defaultDimension`.
 */
export function uncuedArmsWithoutMajority(
  store: Store,
  studyId: string,
  defaultDimension: string,
): UncuedArm[] {
  const rows = store.db
    .prepare(
      `SELECT j.item_id, j.judge_id, j.condition_key FROM jobs j
        WHERE j.study_id = ? AND (j.condition_key = ? OR j.condition_key LIKE ? || '#%')
          AND NOT EXISTS (SELECT 1 FROM study_majorities m
                           WHERE m.study_id = j.study_id AND m.item_id = j.item_id AND m.judge_id = j.judge_id
                             AND m.dimension = coalesce(
                               (SELECT json_extract(c.body_json, '$.dimension') FROM study_conditions c
                                 WHERE c.study_id = j.study_id AND c.key = j.condition_key), ?))
        GROUP BY j.item_id, j.judge_id, j.condition_key
       HAVING sum(j.state IN ('queued', 'running')) = 0`,
    )
    .all(studyId, uncuedKey, uncuedKey, defaultDimension) as {
    item_id: string;
    judge_id: string;
    condition_key: string;
  }[];
  return rows.map((row) => ({
    itemId: row.item_id,
    judgeId: row.judge_id,
    conditionKey: row.condition_key,
  }));
}
