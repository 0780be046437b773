/**
 * The flipped reps of a study (§3.1, App. F, App. H): every cued rep whose binary verdict
 * differs from its item's uncued majority for the same judge. It is harmful when that majority
 * matched the gold label (§3.1), helpful when it did not (App. F). The gold of a binary
 * dimension other than task success is the meta-judge consensus (App. G, GOLD_OF_REP). As App. H prescribes, reps
 * are not collapsed by majority: every flipped rep is its own case, classified individually.
 *
 * Only cued reps whose cue points against the uncued majority count (the design of §3.1; under
 * a `both` / fixed-direction policy some cues point the same way and cannot flip it), and only
 * binary verdicts (graded dimensions flip by a threshold, App. G, which is not a mechanism case).
 */
import { controlKeyOf } from '../../../shared/condition-keys';
import type { Store } from '../store';
import type { FlipKind, Outcome } from '../mechanism-labels';

/** One uncued rep of the same item and judge. */
export interface UncuedTwin {
  repId: string;
  /** Rep index within the uncued arm (1-based, as in jobs.rep). */
  rep: number;
  /** Its binary verdict; null when it gave none. */
  verdict: Outcome | null;
}

/** One flipped cued rep, with everything needed to compare it with its uncued run. */
export interface FlippedRep {
  studyId: string;
  repId: string;
  itemId: string;
  judgeId: string;
  dataset: string;
  conditionKey: string;
  direction: 'severity' | 'leniency';
  /** Rep index within its cued arm (1-based). */
  rep: number;
  /** The dimension the rep judged (App. G; a study may judge several, Fig. 17). */
  dimension: string;
  gold: Outcome;
  uncuedMajority: Outcome;
  cuedVerdict: Outcome;
  kind: FlipKind;
  /** The uncued reps of the same item and judge, by rep index. */
  twins: UncuedTwin[];
  /** The twin the classifiers compare against (see chooseTwin). */
  twinRepId: string;
  simulated: boolean;
}

interface CuedRow {
  rep_id: string;
  item_id: string;
  judge_id: string;
  dataset: string;
  condition_key: string;
  direction: 'severity' | 'leniency';
  rep: number;
  dimension: string;
  gold: Outcome;
  majority: Outcome;
  verdict: string | null;
  simulated: number;
}

interface TwinRow {
  rep_id: string;
  item_id: string;
  judge_id: string;
  condition_key: string;
  rep: number;
  verdict: string | null;
}

function outcomeOf(value: string | null): Outcome | null {
  return value === 'pass' || value === 'fail' ? value : null;
}

/**
 * The uncued run a flipped rep is compared with ("its own uncued run", App. N): the twin with
 * the same rep index when that twin reached the uncued majority, else the lowest-index twin
 * that did. The flip is defined against the majority, so the comparison run must hold it.
 */
export function chooseTwin(
  twins: readonly UncuedTwin[],
  rep: number,
  majority: Outcome,
): UncuedTwin | null {
  const agreeing = twins.filter((twin) => twin.verdict === majority);
  return agreeing.find((twin) => twin.rep === rep) ?? agreeing[0] ?? null;
}

/**
 * A rep's gold (App. G): the item's verifier label on task success, else the meta-judge
 * consensus stored for its dimension (consensus/study-gold.ts); SQL over `r`, `si` and `g`.
 */
export const GOLD_OF_REP = `CASE WHEN coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success')
  = 'task_success' THEN si.gold ELSE g.gold END`;

/** Narrows findFlippedReps to one item (a flip and its twins share it). */
export interface FlipScope {
  itemId: string;
}

/**
 * Every flipped cued rep of a study, ordered by item, judge, condition, direction and rep;
 * with `scope`, only that item's (what one replay needs, without the whole study).
 */
export function findFlippedReps(store: Store, studyId: string, scope?: FlipScope): FlippedRep[] {
  const where = scope ? { studyId, itemId: scope.itemId } : { studyId };
  // Every job's condition is one of the study's, so the IN only lets SQLite seek the jobs'
  // unique (study, condition, item, ...) index for one item instead of scanning the study
  // (`+` keeps it from preferring the (study, state) index).
  const done = scope ? `+j.state = 'done'` : `j.state = 'done'`;
  const scoped = scope
    ? `AND j.condition_key IN (SELECT key FROM study_conditions WHERE study_id = @studyId)
       AND j.item_id = @itemId`
    : '';
  const cued = store.db
    .prepare(
      `SELECT * FROM (
       SELECT j.rep_id, j.item_id, j.judge_id, si.dataset, j.condition_key, j.direction, j.rep,
              ${GOLD_OF_REP} AS gold, m.majority, r.simulated,
              coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success') AS dimension,
              json_extract(r.final_verdict_json, '$.outcome') AS verdict
         FROM jobs j
         JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items si ON si.study_id = j.study_id AND si.item_id = j.item_id
         JOIN study_majorities m
           ON m.study_id = j.study_id AND m.item_id = j.item_id AND m.judge_id = j.judge_id
          AND m.dimension = coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success')
         LEFT JOIN dimension_gold g
           ON g.study_id = j.study_id AND g.item_id = j.item_id
          AND g.dimension = json_extract(r.condition_json, '$.dimension')
        WHERE j.study_id = @studyId AND ${done} AND j.direction <> '' ${scoped}
          AND r.outcome = 'verdict' AND json_extract(r.final_verdict_json, '$.kind') = 'binary'
          AND m.majority IS NOT NULL)
        WHERE gold IS NOT NULL
        ORDER BY item_id, judge_id, condition_key, direction, rep`,
    )
    .all(where) as CuedRow[];
  const twinRows = store.db
    .prepare(
      `SELECT j.rep_id, j.item_id, j.judge_id, j.condition_key, j.rep,
              CASE WHEN r.outcome = 'verdict' THEN json_extract(r.final_verdict_json, '$.outcome') END AS verdict
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
        WHERE j.study_id = @studyId AND ${done} AND j.direction = '' ${scoped}
          AND (j.condition_key = 'uncued' OR j.condition_key LIKE 'uncued#%')
        ORDER BY j.rep`,
    )
    .all(where) as TwinRow[];
  const twinsByItem = new Map<string, UncuedTwin[]>();
  for (const row of twinRows) {
    // Twins are the control of the same dimension, never a mitigated control (§3.4).
    const key = `${row.item_id}\u0000${row.judge_id}\u0000${row.condition_key}`;
    const list = twinsByItem.get(key) ?? [];
    list.push({ repId: row.rep_id, rep: row.rep, verdict: outcomeOf(row.verdict) });
    twinsByItem.set(key, list);
  }
  const flips: FlippedRep[] = [];
  for (const row of cued) {
    const verdict = outcomeOf(row.verdict);
    if (verdict === null || verdict === row.majority) continue;
    const opposes = row.direction === (row.majority === 'pass' ? 'severity' : 'leniency');
    if (!opposes) continue;
    const control = controlKeyOf(row.condition_key);
    const twins = twinsByItem.get(`${row.item_id}\u0000${row.judge_id}\u0000${control}`) ?? [];
    const twin = chooseTwin(twins, row.rep, row.majority);
    if (!twin) continue;
    flips.push({
      studyId,
      repId: row.rep_id,
      itemId: row.item_id,
      judgeId: row.judge_id,
      dataset: row.dataset,
      conditionKey: row.condition_key,
      direction: row.direction,
      rep: row.rep,
      dimension: row.dimension,
      gold: row.gold,
      uncuedMajority: row.majority,
      cuedVerdict: verdict,
      kind: row.majority === row.gold ? 'harmful' : 'helpful',
      twins,
      twinRepId: twin.repId,
      simulated: row.simulated === 1,
    });
  }
  return flips;
}

/** The flipped rep with this id, or null when the rep is not a flip of its study. */
export function findFlippedRep(store: Store, repId: string): FlippedRep | null {
  const row = store.db
    .prepare('SELECT study_id, item_id FROM judge_reps WHERE id = ?')
    .get(repId) as { study_id: string | null; item_id: string } | undefined;
  if (!row?.study_id) return null;
  return (
    findFlippedReps(store, row.study_id, { itemId: row.item_id }).find(
      (flip) => flip.repId === repId,
    ) ?? null
  );
}
