/**
 * The workbench's reps query: one page of a native study's done reps, filtered, sorted and
 * searched in SQL. Search goes through the full-text index over the rationale and every stored
 * message of the transcript (search-index.ts: words, "phrases", prefix*), so no stored text is
 * read or decompressed to answer it. Pages are fetched with one row beyond the page to say
 * whether more follow, so no query counts the whole study.
 */
import type { Store } from './database';
import { NATIVE_REP_COLUMNS, nativeRepSummary, type RepListRow } from './reps';
import { repMatchesSql, searchMatch } from './search-index';

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

const ORDER: Record<RepSortKey, readonly string[]> = {
  item: ['i.position', 'i.item_id'],
  judge: ['j.judge_id'],
  condition: ['j.condition_key', 'j.direction'],
  rep: ['j.rep'],
  // Guarded as in the index (migration 0015): a damaged verdict must not fail the migration
  // and every later write; the page that reads it names the damaged row and column.
  verdict: [
    "coalesce(CASE WHEN json_valid(r.final_verdict_json) THEN json_extract(r.final_verdict_json, '$.outcome') END, '~')",
  ],
  turns: ['r.turns'],
};

/** Ties are broken in the study's order: item, then condition, judge, direction and rep. */
const TIE_BREAK = [
  'i.position',
  'i.item_id',
  'j.condition_key',
  'j.judge_id',
  'j.direction',
  'j.rep',
  'j.rep_id',
];

/** The ORDER BY of a sort: its key one way, then the tie-break columns it does not hold. */
function orderBy(sort: RepSortKey, descending: boolean): string {
  const keys = ORDER[sort];
  const way = descending ? 'DESC' : 'ASC';
  return [
    ...keys.map((key) => `${key} ${way}`),
    ...TIE_BREAK.filter((column) => !keys.includes(column)),
  ].join(', ');
}

/**
 * One page of reps and whether more follow. Two steps: the page's rep ids, read from the
 * study's items in position order and each item's done jobs in tie-break order (migration
 * 0015's indexes, so the default sort reads about one page of index entries; judge_reps joins
 * only when a verdict filter or sort needs it), then those reps' columns.
 */
export function queryStudyReps(
  store: Store,
  query: RepQuery,
): { rows: QueriedRep[]; hasMore: boolean } {
  const limit = query.limit ?? 50;
  const direction = query.direction === 'uncued' ? '' : (query.direction ?? null);
  const verdictOf = `CASE WHEN r.outcome = 'verdict' THEN json_extract(r.final_verdict_json, '$.outcome') END`;
  const search = query.search?.trim() ? searchMatch(query.search.trim()) : null;
  const sort = query.sort ?? 'item';
  const needsRep = query.verdict !== undefined || sort === 'verdict' || sort === 'turns';
  const filters = {
    studyId: query.studyId,
    judgeId: query.judgeId ?? null,
    dataset: query.dataset ?? null,
    conditionKey: query.conditionKey ?? null,
  };
  // CROSS JOIN fixes the outer loop: the items (their position index gives the item order), or
  // for a sort by turns or verdict the reps (read in that order from their index).
  const byRep = sort === 'verdict' || sort === 'turns';
  const tables = byRep
    ? `judge_reps r CROSS JOIN jobs j ON j.rep_id = r.id
         CROSS JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id`
    : `study_items i CROSS JOIN jobs j ON j.study_id = i.study_id AND j.item_id = i.item_id
         ${needsRep ? 'JOIN judge_reps r ON r.id = j.rep_id' : ''}`;
  const ids = store.db
    .prepare(
      `SELECT j.rep_id FROM ${tables}
        WHERE ${byRep ? 'r.study_id = @studyId AND +j.study_id' : 'i.study_id = @studyId AND j.study_id'} = @studyId
          AND j.state = 'done'
          AND (@judgeId IS NULL OR j.judge_id = @judgeId)
          AND (@dataset IS NULL OR i.dataset = @dataset)
          AND (@conditionKey IS NULL OR j.condition_key = @conditionKey)
          AND (@direction IS NULL OR j.direction = @direction)
          ${
            query.verdict === undefined
              ? ''
              : `AND CASE WHEN ${verdictOf} IN ('pass', 'fail') THEN ${verdictOf} ELSE 'none' END = @verdict`
          }
          AND (@only IS NULL OR j.rep_id IN (SELECT value FROM json_each(@only)))
          AND (@except IS NULL OR j.rep_id NOT IN (SELECT value FROM json_each(@except)))
          ${search === null ? '' : `AND ${repMatchesSql('j.rep_id')}`}
        ORDER BY ${orderBy(sort, query.descending ?? false)}
        LIMIT @limit OFFSET @offset`,
    )
    .pluck()
    .all({
      ...filters,
      direction,
      ...(query.verdict === undefined ? {} : { verdict: query.verdict }),
      only: query.onlyRepIds ? JSON.stringify(query.onlyRepIds) : null,
      except: query.exceptRepIds ? JSON.stringify(query.exceptRepIds) : null,
      ...(search === null ? {} : { search }),
      limit: limit + 1,
      offset: query.offset ?? 0,
    }) as string[];
  const page = ids.slice(0, limit);
  // Driven by the page's ids (CROSS JOIN and `+` keep SQLite from scanning the study instead).
  const rows = store.db
    .prepare(
      `SELECT ${NATIVE_REP_COLUMNS}
         FROM json_each(@ids) p
         CROSS JOIN jobs j ON j.rep_id = p.value
         CROSS JOIN judge_reps r ON r.id = j.rep_id
         CROSS JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
        WHERE +j.study_id = @studyId AND +j.state = 'done'`,
    )
    .all({ studyId: query.studyId, ids: JSON.stringify(page) }) as RepListRow[];
  const byId = new Map(rows.map((row) => [row.rep_id, row]));
  return {
    rows: page.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [nativeRepSummary(row)];
    }),
    hasMore: ids.length > limit,
  };
}

/**
 * The values each filter can take in a study (for the workbench's menus), each read by index
 * seeks rather than a scan of the study's jobs: judges one seek per judge, datasets and
 * conditions one probe per item and per condition.
 */
export function repFacets(store: Store, studyId: string) {
  const judges = store.db
    .prepare(
      `WITH RECURSIVE judge(id) AS (
         SELECT min(judge_id) FROM jobs WHERE study_id = @studyId AND state = 'done'
         UNION ALL
         SELECT (SELECT min(judge_id) FROM jobs
                  WHERE study_id = @studyId AND state = 'done' AND judge_id > judge.id)
           FROM judge WHERE judge.id IS NOT NULL)
       SELECT id FROM judge WHERE id IS NOT NULL`,
    )
    .pluck()
    .all({ studyId }) as string[];
  const datasets = store.db
    .prepare(
      `SELECT DISTINCT i.dataset FROM study_items i
        WHERE i.study_id = ? AND EXISTS (SELECT 1 FROM jobs j
          WHERE j.study_id = i.study_id AND j.item_id = i.item_id AND j.state = 'done')
        ORDER BY 1`,
    )
    .pluck()
    .all(studyId) as string[];
  const conditions = store.db
    .prepare(
      `SELECT c.key FROM study_conditions c
        WHERE c.study_id = ? AND EXISTS (SELECT 1 FROM jobs j
          WHERE j.study_id = c.study_id AND j.condition_key = c.key AND j.state = 'done')
        ORDER BY 1`,
    )
    .pluck()
    .all(studyId) as string[];
  return { judges, datasets, conditions };
}

/**
 * The mechanism labels a study's reps carry, each rep's from the first of `sources` it has:
 * the workbench's mechanism menu, read from the labels alone (they are stored for flipped reps
 * only) instead of finding every flip of the study. Labels are few (one per flip and source):
 * they are read by source and kept if their rep's job is the study's.
 */
export function repMechanismFacet(
  store: Store,
  studyId: string,
  sources: readonly string[],
): string[] {
  const rows = store.db
    .prepare(
      `SELECT l.rep_id AS repId, l.source, l.label FROM mechanism_labels l
         CROSS JOIN jobs j ON j.rep_id = l.rep_id
        WHERE +j.study_id = @studyId AND l.source IN (SELECT value FROM json_each(@sources))`,
    )
    .all({ studyId, sources: JSON.stringify(sources) }) as MechanismRow[];
  return [...new Set(firstBySource(rows, sources).values())].sort();
}

/**
 * The mechanism of each of `repIds` that has one, from the first of `sources` it has a label
 * of: one seek of the labels' key per rep (the workbench's flips, without their study's jobs).
 */
export function repMechanisms(
  store: Store,
  repIds: readonly string[],
  sources: readonly string[],
): Map<string, string> {
  const rows = store.db
    .prepare(
      `SELECT l.rep_id AS repId, l.source, l.label FROM json_each(@repIds) ids
         CROSS JOIN mechanism_labels l ON l.rep_id = ids.value
        WHERE l.source IN (SELECT value FROM json_each(@sources))`,
    )
    .all({ repIds: JSON.stringify(repIds), sources: JSON.stringify(sources) }) as MechanismRow[];
  return firstBySource(rows, sources);
}

interface MechanismRow {
  repId: string;
  source: string;
  label: string;
}

/** Each rep's label from the first of `sources` among its rows. */
function firstBySource(
  rows: readonly MechanismRow[],
  sources: readonly string[],
): Map<string, string> {
  const chosen = new Map<string, { rank: number; label: string }>();
  for (const row of rows) {
    const rank = sources.indexOf(row.source);
    const held = chosen.get(row.repId);
    if (!held || rank < held.rank) chosen.set(row.repId, { rank, label: row.label });
  }
  return new Map([...chosen].map(([repId, entry]) => [repId, entry.label]));
}

/** The write counter of the mechanism labels (migration 0012), for caches of the facet. */
export function labelsRevision(store: Store): number {
  const revision = store.db
    .prepare("SELECT revision FROM write_revisions WHERE scope = 'labels'")
    .pluck()
    .get() as number | undefined;
  return revision ?? 0;
}
