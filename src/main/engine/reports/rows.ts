/**
 * A study's reps as analysis rows (analysis/types.ts `JudgeRepRow`), the one input of every
 * table: native studies from their finished jobs and stored reps, imported studies from their
 * imported records. One query per study (plus its conditions), so the paper's scale (70,000
 * reps, App. R) reads in one pass.
 */
import type { BinaryVerdict, CueDirection, JudgeRepRow, RepOutcomeName } from '../analysis';
import { EngineError } from '../errors';
import { baseConditionKey, cueKey, type StudyCondition } from '../runner';
import type { Store } from '../store';

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
  const row = store.db
    .prepare('SELECT id, name, origin, status, simulated FROM studies WHERE id = ?')
    .get(studyId) as
    | { id: string; name: string; origin: 'native' | 'imported'; status: string; simulated: number }
    | undefined;
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  return { ...row, simulated: row.simulated === 1 };
}

/** Every finished rep of a study as analysis rows. */
export function studyRows(store: Store, studyId: string): JudgeRepRow[] {
  const header = studyHeader(store, studyId);
  return header.origin === 'imported' ? importedRows(store, studyId) : nativeRows(store, studyId);
}

function verdictOf(value: unknown): BinaryVerdict | null {
  return value === 'pass' || value === 'fail' ? value : null;
}

function directionOf(value: unknown): CueDirection | null {
  return value === 'severity' || value === 'leniency' ? value : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function outcomeOf(value: string): RepOutcomeName | null {
  return value === 'verdict' ||
    value === 'invalid_verdict' ||
    value === 'budget_exhausted' ||
    value === 'error'
    ? value
    : null;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The one dimension with a deterministic verifier (App. G: "Only task success has a
 * deterministic external verifier"). Other binary dimensions take the meta-judge consensus as
 * noisy gold: a results import supplies it in its `gold` column, a native study has it once
 * `cuelab classify --voters` derived it (metajudge/consensus, table dimension_gold).
 */
const TASK_SUCCESS = 'task_success';

interface NativeRow {
  item_id: string;
  dataset: string;
  judge_id: string;
  condition_key: string;
  direction: string;
  rep: number;
  gold: string | null;
  consensus_gold: string | null;
  outcome: string;
  simulated: number;
  turns: number;
  dimension: string | null;
  kind: string | null;
  verdict: string | null;
  score: number | null;
  present: number | null;
  absent: number | null;
}

/** Display and pairing fields of a condition: cue label, placement, mitigation. */
function describe(condition: StudyCondition | undefined) {
  if (!condition?.cue) return { cueLabel: null, placement: null, mitigation: null };
  const mitigation = condition.mitigations.map((spec) => spec.id).join('+');
  return {
    cueLabel: cueKey(condition.cue),
    placement: condition.placement,
    mitigation: mitigation === '' ? null : mitigation,
  };
}

function nativeRows(store: Store, studyId: string): JudgeRepRow[] {
  const conditions = new Map(
    (
      store.db
        .prepare('SELECT key, body_json FROM study_conditions WHERE study_id = ?')
        .all(studyId) as { key: string; body_json: string }[]
    ).map((row) => [row.key, describe(JSON.parse(row.body_json) as StudyCondition)]),
  );
  const rows = store.db
    .prepare(
      `SELECT j.item_id, i.dataset, j.judge_id, j.condition_key, j.direction, j.rep, i.gold,
              g.gold AS consensus_gold,
              r.outcome, r.simulated, r.turns,
              json_extract(r.condition_json, '$.dimension') AS dimension,
              json_extract(r.final_verdict_json, '$.kind') AS kind,
              json_extract(r.final_verdict_json, '$.outcome') AS verdict,
              json_extract(r.final_verdict_json, '$.score') AS score,
              json_array_length(r.final_verdict_json, '$.present') AS present,
              json_array_length(r.final_verdict_json, '$.absent') AS absent
         FROM jobs j
         JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
         JOIN study_conditions c ON c.study_id = j.study_id AND c.key = j.condition_key
         LEFT JOIN dimension_gold g
           ON g.study_id = j.study_id AND g.item_id = j.item_id
          AND g.dimension = json_extract(r.condition_json, '$.dimension')
        WHERE j.study_id = ? AND j.state = 'done'
        ORDER BY i.position, j.judge_id, c.position, j.direction, j.rep`,
    )
    .all(studyId) as NativeRow[];
  const out = rows.map((row): JudgeRepRow => {
    const valid = row.outcome === 'verdict';
    const dimension = row.dimension ?? TASK_SUCCESS;
    const attribution = row.kind === 'error_attribution';
    const present = valid && attribution ? numberOf(row.present) : null;
    const absent = valid && attribution ? numberOf(row.absent) : null;
    return {
      itemId: row.item_id,
      dataset: row.dataset,
      judge: row.judge_id,
      // An extra dimension's arms (`KEY#dimension`) pair by KEY within their own dimension.
      condition: baseConditionKey(row.condition_key),
      cueDirection: directionOf(row.direction),
      rep: row.rep,
      verdict: valid && row.kind === 'binary' ? verdictOf(row.verdict) : null,
      score: valid && row.kind === 'graded' ? numberOf(row.score) : null,
      // App. G: only task success has a verifier; the item's label is not another dimension's,
      // whose gold is the meta-judge consensus on the uncued evidence.
      gold: dimension === TASK_SUCCESS ? verdictOf(row.gold) : verdictOf(row.consensus_gold),
      dimension,
      turns: row.turns,
      simulated: row.simulated === 1,
      categoriesPresent: present,
      taxonomySize: present !== null && absent !== null ? present + absent : null,
      ...(conditions.get(row.condition_key) ?? describe(undefined)),
      outcome: outcomeOf(row.outcome),
    };
  });
  return withTaxonomySizes(out);
}

/**
 * An error-attribution rep with no valid verdict still belongs to its trajectory (headroom.ts
 * counts it as incomplete), so it takes the taxonomy size its item's valid reps report.
 */
function withTaxonomySizes(rows: JudgeRepRow[]): JudgeRepRow[] {
  const sizes = new Map<string, number>();
  const key = (row: JudgeRepRow) => `${row.dataset}\u0000${row.itemId}`;
  for (const row of rows) if (row.taxonomySize != null) sizes.set(key(row), row.taxonomySize);
  return rows.map((row) =>
    row.dimension === 'error_attribution' && row.taxonomySize == null && sizes.has(key(row))
      ? { ...row, taxonomySize: sizes.get(key(row)) ?? null }
      : row,
  );
}

interface ImportedRow {
  item_id: string;
  dataset: string;
  judge: string;
  condition: string;
  cue_direction: string | null;
  rep: number;
  verdict: string | null;
  score: number | null;
  gold: string | null;
  dimension: string;
  turns: number | null;
  simulated: number | null;
  placement: unknown;
  mitigation: unknown;
  cue_label: unknown;
  categories_present: unknown;
  taxonomy_size: unknown;
}

function importedRows(store: Store, studyId: string): JudgeRepRow[] {
  const rows = store.db
    .prepare(
      `SELECT item_id, dataset, judge, condition, cue_direction, rep, verdict, score, gold,
              dimension, turns,
              json_extract(extra_json, '$.simulated') AS simulated,
              json_extract(extra_json, '$.placement') AS placement,
              json_extract(extra_json, '$.mitigation') AS mitigation,
              json_extract(extra_json, '$.cue_label') AS cue_label,
              json_extract(extra_json, '$.categories_present') AS categories_present,
              json_extract(extra_json, '$.taxonomy_size') AS taxonomy_size
         FROM imported_reps WHERE study_id = ? ORDER BY line`,
    )
    .all(studyId) as ImportedRow[];
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
