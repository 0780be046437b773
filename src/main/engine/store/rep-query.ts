/**
 * The workbench's reps query: one page of a native study's done reps, filtered, sorted and
 * searched in SQL. Search is a case-insensitive substring match over the rationale and every
 * stored message of the transcript (LIKE: the words people look for, e.g. a file name or a cue's
 * phrase, are rarely whole tokens an FTS index would split alike). Pages are fetched with one
 * row beyond the page to say whether more follow, so no query counts the whole study.
 */
import type { Store } from './database';
import { NATIVE_REPS_WHERE, nativeRepSummary, type RepListRow } from './reps';

/** Columns the reps table sorts by. */
export const REP_SORT_KEYS = ['item', 'judge', 'condition', 'rep', 'verdict', 'turns'] as const;

/** One of REP_SORT_KEYS. */
export type RepSortKey = (typeof REP_SORT_KEYS)[number];

/** What `queryStudyReps` narrows to; every field optional but the study. */
export interface RepQuery {
  readonly studyId: string;
  readonly judgeId?: string | undefined;
  readonly dataset?: string | undefined;
  readonly conditionKey?: string | undefined;
  /** 'uncued' for the control's reps. */
  readonly direction?: 'severity' | 'leniency' | 'uncued' | undefined;
  /** 'none': the rep gave no pass/fail verdict. */
  readonly verdict?: 'pass' | 'fail' | 'none' | undefined;
  /** Only these reps (the flipped or mechanism filters, decided outside SQL). */
  readonly onlyRepIds?: readonly string[] | undefined;
  /** Leave these reps out (the "not flipped" filter). */
  readonly exceptRepIds?: readonly string[] | undefined;
  readonly search?: string | undefined;
  readonly sort?: RepSortKey | undefined;
  readonly descending?: boolean | undefined;
  readonly offset?: number | undefined;
  readonly limit?: number | undefined;
}

/** One rep as the workbench table lists it. */
export type QueriedRep = ReturnType<typeof nativeRepSummary>;

const ORDER: Record<RepSortKey, string> = {
  item: 'i.position, j.item_id',
  judge: 'j.judge_id',
  condition: 'j.condition_key, j.direction',
  rep: 'j.rep',
  verdict: "coalesce(json_extract(r.final_verdict_json, '$.outcome'), '~')",
  turns: 'r.turns',
};

/** `text` as a LIKE pattern matching it anywhere, with %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** One page of reps and whether more follow. */
export function queryStudyReps(
  store: Store,
  query: RepQuery,
): { rows: QueriedRep[]; hasMore: boolean } {
  const limit = query.limit ?? 50;
  const direction = query.direction === 'uncued' ? '' : (query.direction ?? null);
  const verdictOf = `CASE WHEN r.outcome = 'verdict' THEN json_extract(r.final_verdict_json, '$.outcome') END`;
  const search = query.search?.trim() ? containsPattern(query.search.trim()) : null;
  const order = ORDER[query.sort ?? 'item'];
  const way = query.descending ? 'DESC' : 'ASC';
  const rows = store.db
    .prepare(
      `${NATIVE_REPS_WHERE}
          AND (@direction IS NULL OR j.direction = @direction)
          AND (@verdict IS NULL
               OR CASE WHEN ${verdictOf} IN ('pass', 'fail') THEN ${verdictOf} ELSE 'none' END = @verdict)
          AND (@only IS NULL OR j.rep_id IN (SELECT value FROM json_each(@only)))
          AND (@except IS NULL OR j.rep_id NOT IN (SELECT value FROM json_each(@except)))
          AND (@search IS NULL
               OR json_extract(r.final_verdict_json, '$.rationale') LIKE @search ESCAPE '\\'
               OR EXISTS (SELECT 1 FROM judge_messages m
                           WHERE m.rep_id = j.rep_id AND m.content LIKE @search ESCAPE '\\'))
        ORDER BY ${order} ${way}, i.position, j.condition_key, j.judge_id, j.direction, j.rep, j.rep_id
        LIMIT @limit OFFSET @offset`,
    )
    .all({
      studyId: query.studyId,
      judgeId: query.judgeId ?? null,
      dataset: query.dataset ?? null,
      conditionKey: query.conditionKey ?? null,
      direction,
      verdict: query.verdict ?? null,
      only: query.onlyRepIds ? JSON.stringify(query.onlyRepIds) : null,
      except: query.exceptRepIds ? JSON.stringify(query.exceptRepIds) : null,
      search,
      limit: limit + 1,
      offset: query.offset ?? 0,
    }) as RepListRow[];
  return { rows: rows.slice(0, limit).map(nativeRepSummary), hasMore: rows.length > limit };
}

/** The values each filter can take in a study (for the workbench's menus). */
export function repFacets(store: Store, studyId: string) {
  const distinct = (column: string) =>
    store.db
      .prepare(
        `SELECT DISTINCT ${column} FROM jobs j
           JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
          WHERE j.study_id = ? AND j.state = 'done' ORDER BY 1`,
      )
      .pluck()
      .all(studyId) as string[];
  return {
    judges: distinct('j.judge_id'),
    datasets: distinct('i.dataset'),
    conditions: distinct('j.condition_key'),
  };
}
