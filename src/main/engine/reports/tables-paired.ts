/**
 * Tables that pair each cued arm with the control arm on gold-labelled pass/fail verdicts:
 * flips (Table 6 layout), severity vs leniency (App. D), accuracy (Table 5) and mitigations
 * (Table 1). Each is a thin layout over one analysis function (analysis/).
 */
import {
  accuracyUnderCue,
  directionAsymmetry,
  type DirectionRate,
  type DirectionRow,
  flipRates,
  type FlipRow,
  mitigationEffects,
  type MitigationRow,
  UNCUED_CONDITION,
  type JudgeRepRow,
  type ReportColumn,
  type ReportRow,
  type ReportTable,
  POOLED,
  intervalCells,
  intervalColumns,
  makeTable,
  percent,
  whyNoPairs,
  rowFacts,
} from '../analysis';

/** The dataset App. D leaves out of its last panel ("Excluding ... SWE-Bench-Verified"). */
const PASS_HEAVY_DATASET = 'swe-bench-verified';

const armColumns: ReportColumn[] = [
  { key: 'condition', label: 'Condition' },
  { key: 'dimension', label: 'Dimension' },
  { key: 'scope', label: 'Scope' },
  { key: 'judge', label: 'Judge' },
  { key: 'dataset', label: 'Dataset' },
];

function armCells(row: {
  condition: string;
  dimension: string;
  scope: string;
  judge: string | null;
  dataset: string | null;
}): ReportRow {
  return {
    condition: row.condition,
    dimension: row.dimension,
    scope: row.scope,
    judge: row.judge ?? POOLED,
    dataset: row.dataset ?? POOLED,
  };
}

function gradedNote(rows: readonly JudgeRepRow[]): string[] {
  const facts = rowFacts(rows);
  const binary = new Set(facts.verdictDimensions);
  const graded = facts.scoreDimensions.filter((dimension) => !binary.has(dimension));
  return graded.length
    ? [`graded dimensions (${graded.join(', ')}) have no gold label and are not in this table`]
    : [];
}

/**
 * App. G: a binary dimension other than task success has no verifier; its gold is the
 * meta-judge consensus ("noisy ground truth"): derived by `cuelab classify --voters` for a
 * native study, from the gold column for an imported one.
 */
function noisyGoldNote(rows: readonly JudgeRepRow[]): string[] {
  const facts = rowFacts(rows);
  const dimensions = facts.verdictDimensions.filter((dimension) => dimension !== 'task_success');
  if (dimensions.length === 0) return [];
  const without = dimensions.filter((dimension) => !facts.goldDimensions.has(dimension));
  return [
    `gold: meta-judge consensus for ${dimensions.join(', ')} (no verifier, App. G: noisy ` +
      'ground truth from the ensemble on the uncued evidence, or the imported gold column)' +
      (without.length
        ? `; ${without.join(', ')} has none yet (run cuelab classify --voters), so its items ` +
          'count as no gold'
        : ''),
  ];
}

/** The budget_exhausted reps counted per dimension × condition × judge × dataset. */
function exhaustedCells(rows: readonly JudgeRepRow[]) {
  const cells = new Map<
    string,
    { dimension: string; condition: string; judge: string; dataset: string; reps: number }
  >();
  for (const row of rowFacts(rows).exhausted) {
    const key = [row.dimension, row.condition, row.judge, row.dataset].join('\u0000');
    const cell = cells.get(key);
    if (cell) cell.reps += 1;
    else cells.set(key, { ...row, reps: 1 });
  }
  return [...cells.values()];
}

/** The budget_exhausted reps behind a flip row: its judge / dataset scope, its cued arm or the control. */
function exhaustedBehind(
  cells: ReturnType<typeof exhaustedCells>,
  flip: { condition: string; dimension: string; judge: string | null; dataset: string | null },
): number {
  let reps = 0;
  for (const cell of cells)
    if (
      cell.dimension === flip.dimension &&
      (cell.condition === flip.condition || cell.condition === UNCUED_CONDITION) &&
      (flip.judge === null || cell.judge === flip.judge) &&
      (flip.dataset === null || cell.dataset === flip.dataset)
    )
      reps += cell.reps;
  return reps;
}

/**
 * App. E: the grand mean across judge × dataset cells, beside the item-pooled rate. For a cell
 * row it is the cell's own rate; cells with no gated item have no rate and are left out.
 */
function grandMeans(flips: readonly FlipRow[]): (row: FlipRow) => number | null {
  // The judge × dataset cells of each arm, found once (the table has a row per cell and pool).
  const cells = new Map<string, FlipRow[]>();
  for (const cell of flips) {
    if (cell.scope !== 'judge-dataset') continue;
    const arm = `${cell.condition}\u0000${cell.dimension}`;
    cells.set(arm, [...(cells.get(arm) ?? []), cell]);
  }
  return (row) => {
    let sum = 0;
    let count = 0;
    for (const cell of cells.get(`${row.condition}\u0000${row.dimension}`) ?? []) {
      if (row.judge !== null && cell.judge !== row.judge) continue;
      if (row.dataset !== null && cell.dataset !== row.dataset) continue;
      if (cell.harmfulFlipRate === null) continue;
      sum += cell.harmfulFlipRate;
      count += 1;
    }
    return count === 0 ? null : sum / count;
  };
}

/**
 * The second reading of a mitigation's control arm: the after arm paired with an uncued arm
 * that ran the same mitigation (`uncued+MITIGATION`), when the study has one.
 */
function mitigatedControlRates(
  rows: readonly JudgeRepRow[],
  effects: readonly MitigationRow[],
): (effect: MitigationRow) => FlipRow | undefined {
  const controlOf = (effect: MitigationRow) => `${UNCUED_CONDITION}+${effect.mitigation}`;
  const keyOf = (effect: MitigationRow) => `${controlOf(effect)}\u0000${effect.after.condition}`;
  const byArm = new Map<string, readonly FlipRow[]>();
  // One pass over the rows for the conditions present, not one per mitigation row.
  const conditions = rowFacts(rows).conditions;
  for (const effect of effects) {
    const control = controlOf(effect);
    if (byArm.has(keyOf(effect)) || !conditions.has(control)) continue;
    const armRows = rows.filter(
      (row) => row.condition === control || row.condition === effect.after.condition,
    );
    byArm.set(keyOf(effect), flipRates(armRows, { controlCondition: control }));
  }
  return (effect) =>
    byArm
      .get(keyOf(effect))
      ?.find(
        (row) =>
          row.condition === effect.after.condition &&
          row.dimension === effect.dimension &&
          row.scope === effect.scope &&
          row.judge === effect.judge &&
          row.dataset === effect.dataset,
      );
}

/** Table 6 layout: N, gate, #HF, HF %, wrong, #HELP, HELP % per judge × dataset and pooled. */
export function flipsTable(rows: readonly JudgeRepRow[]): ReportTable {
  const flips = flipRates(rows);
  // Only these reps can count; filtering them first keeps the per-row count off the whole study.
  const exhausted = exhaustedCells(rows);
  const grandMean = grandMeans(flips);
  const notes = [
    'N = items with both arms and a gold label (gate + wrong); gate = items the uncued majority ' +
      'got right; HF % = #HF / gate (§3.1); HELP % = #HELP / wrong (App. F); 95% Wilson intervals',
    'scope: judge-dataset = one judge on one dataset; judge = pooled over datasets; all = pooled ' +
      'over judges and datasets',
    'HF % pools items (#HF / gate); HF % grand mean of cells is the unweighted mean over the ' +
      'judge × dataset cells in the row’s scope that have a gate (App. E reports both: 31% grand ' +
      'mean, 26% pooled)',
    'undetermined items: the uncued or cued majority is a tie or has no valid rep (majority.ts); ' +
      'counted here, in no denominator',
    'excluded items: undetermined majority, no gold label, no control arm, or no cued rep ' +
      'opposing the uncued majority',
    'budget_exhausted reps: reps of the row (both arms) a safety setting ended without a verdict',
    ...gradedNote(rows),
    ...noisyGoldNote(rows),
  ];
  const why = flips.length === 0 ? whyNoPairs(rows) : null;
  if (why) notes.push(why);
  return makeTable(
    {
      name: 'flips',
      title: 'Harmful and helpful flips per judge × dataset (Table 6 layout)',
      columns: [
        ...armColumns,
        { key: 'n', label: 'N' },
        { key: 'gate', label: 'gate' },
        { key: 'harmful', label: '#HF' },
        { key: 'harmfulPct', label: 'HF %', unit: '%' },
        ...intervalColumns('harmful', 'HF %'),
        { key: 'harmfulGrandMeanPct', label: 'HF % grand mean of cells', unit: '%' },
        { key: 'wrong', label: 'wrong' },
        { key: 'helpful', label: '#HELP' },
        { key: 'helpfulPct', label: 'HELP %', unit: '%' },
        ...intervalColumns('helpful', 'HELP %'),
        { key: 'undetermined', label: 'undetermined items' },
        { key: 'excluded', label: 'excluded items' },
        { key: 'budgetExhausted', label: 'budget_exhausted reps' },
      ],
      rows: flips.map((flip) => ({
        ...armCells(flip),
        n: flip.n,
        gate: flip.gate,
        harmful: flip.harmful,
        harmfulPct: percent(flip.harmfulFlipRate),
        ...intervalCells('harmful', flip.harmfulFlipCi),
        harmfulGrandMeanPct: percent(grandMean(flip)),
        wrong: flip.wrong,
        helpful: flip.helpful,
        helpfulPct: percent(flip.helpfulFlipRate),
        ...intervalCells('helpful', flip.helpfulFlipCi),
        undetermined: flip.excluded.undetermined,
        excluded:
          flip.excluded.undetermined +
          flip.excluded.noGold +
          flip.excluded.noControl +
          flip.excluded.notOpposing,
        budgetExhausted: exhaustedBehind(exhausted, flip),
      })),
      notes,
    },
    rows,
    flips,
  );
}

function directionCells(prefix: 'severity' | 'leniency', rate: DirectionRate): ReportRow {
  return {
    [`${prefix}Gate`]: rate.gate,
    [`${prefix}Harmful`]: rate.harmful,
    [`${prefix}Pct`]: percent(rate.harmfulFlipRate),
    ...intervalCells(prefix, rate.harmfulFlipCi),
  };
}

function directionColumns(prefix: 'severity' | 'leniency'): ReportColumn[] {
  return [
    { key: `${prefix}Gate`, label: `${prefix} gate` },
    { key: `${prefix}Harmful`, label: `${prefix} #HF` },
    { key: `${prefix}Pct`, label: `${prefix} HF %`, unit: '%' },
    ...intervalColumns(prefix, `${prefix} HF %`),
  ];
}

/** App. D: severity vs leniency gold-gated harmful flip rates per scope. */
export function severityTable(rows: readonly JudgeRepRow[]): ReportTable {
  const all = directionAsymmetry(rows);
  const datasets = rowFacts(rows).datasets;
  const withoutPassHeavy =
    datasets.has(PASS_HEAVY_DATASET) && datasets.size > 1
      ? directionAsymmetry(rows, { excludeDatasets: [PASS_HEAVY_DATASET] })
          .filter((row) => row.scope === 'judge')
          .map((row) => ({ ...row, scope: `judge excl. ${PASS_HEAVY_DATASET}` }))
      : [];
  const shown: (Omit<DirectionRow, 'scope'> & { scope: string })[] = [...all, ...withoutPassHeavy];
  const notes = [
    'severity: gold PASS items the uncued majority judged PASS, flipped to FAIL by a cue ' +
      'asserting failure; leniency: gold FAIL items judged FAIL, flipped to PASS (App. D); ' +
      '95% Wilson intervals',
    'scope: judge-dataset, dataset (pooled over judges), judge (pooled over datasets), all',
  ];
  if (withoutPassHeavy.length)
    notes.push(
      `"judge excl. ${PASS_HEAVY_DATASET}" rows leave the pass-heavy dataset out (App. D)`,
    );
  const why = all.length === 0 ? whyNoPairs(rows) : null;
  if (why) notes.push(why);
  return makeTable(
    {
      name: 'severity',
      title: 'Direction asymmetry: severity vs leniency harmful flip rates (App. D)',
      columns: [
        ...armColumns,
        ...directionColumns('severity'),
        ...directionColumns('leniency'),
        { key: 'n', label: 'n gated' },
      ],
      rows: shown.map((row) => ({
        ...armCells(row),
        ...directionCells('severity', row.severity),
        ...directionCells('leniency', row.leniency),
        n: row.n,
      })),
      notes,
    },
    rows,
    shown,
  );
}

/** Table 5 / Table 6's last columns: accuracy before, adversarial and untargeted. */
export function accuracyTable(rows: readonly JudgeRepRow[]): ReportTable {
  const accuracy = accuracyUnderCue(rows);
  const notes = [
    'before = uncued majority accuracy (gate / N); adversarial = the cue applied only where it ' +
      'points away from gold ((gate − #HF) / N); untargeted = applied in both directions, ' +
      'crediting corrections ((gate − #HF + #HELP) / N) (App. C); 95% Wilson intervals',
    'scope judge is Table 5; judge-dataset rows are Table 6’s last columns',
  ];
  const why = accuracy.length === 0 ? whyNoPairs(rows) : null;
  if (why) notes.push(why);
  return makeTable(
    {
      name: 'accuracy',
      title: 'End-to-end judge accuracy under the cue (Table 5)',
      columns: [
        ...armColumns,
        { key: 'n', label: 'N' },
        { key: 'beforePct', label: 'before %', unit: '%' },
        ...intervalColumns('before', 'before %'),
        { key: 'harmful', label: '#HF' },
        { key: 'adversarialPct', label: 'adversarial %', unit: '%' },
        ...intervalColumns('adversarial', 'adversarial %'),
        { key: 'helpful', label: '#HELP' },
        { key: 'untargetedPct', label: 'untargeted %', unit: '%' },
        ...intervalColumns('untargeted', 'untargeted %'),
      ],
      rows: accuracy.map((row) => ({
        ...armCells(row),
        n: row.n,
        beforePct: percent(row.before),
        ...intervalCells('before', row.beforeCi),
        harmful: row.harmful,
        adversarialPct: percent(row.adversarial),
        ...intervalCells('adversarial', row.adversarialCi),
        helpful: row.helpful,
        untargetedPct: percent(row.untargeted),
        ...intervalCells('untargeted', row.untargetedCi),
      })),
      notes,
    },
    rows,
    accuracy,
  );
}

/** Table 1: harmful / helpful flip rates before → after each mitigation, exact McNemar p. */
export function mitigationsTable(rows: readonly JudgeRepRow[]): ReportTable {
  const effects = mitigationEffects(rows);
  const mitigated = mitigatedControlRates(rows, effects);
  const notes = [
    'before = the cued condition without the mitigation, after = the same cue and placement ' +
      'with it (§3.4)',
    'control: §3.4 does not say whether the control arm also ran with the mitigation. HF % ' +
      'before / after use the unmitigated control (the uncued arm); the "vs mitigated control" ' +
      `columns pair the after arm with an uncued arm that ran the mitigation (condition ` +
      `"${UNCUED_CONDITION}+MITIGATION"), when the study has one`,
    'p = exact two-sided McNemar test on the items determined in both arms (harmful: gated ' +
      'items; helpful: wrong items); n = those items',
  ];
  if (effects.length === 0)
    notes.push(
      whyNoPairs(rows) ??
        'this study has no mitigated condition paired with an unmitigated one of the same cue ' +
          'and placement',
    );
  return makeTable(
    {
      name: 'mitigations',
      title: 'Mitigations: harmful and helpful flip rates before → after (Table 1)',
      columns: [
        { key: 'mitigation', label: 'Mitigation' },
        { key: 'before', label: 'Before condition' },
        { key: 'after', label: 'After condition' },
        { key: 'dimension', label: 'Dimension' },
        { key: 'scope', label: 'Scope' },
        { key: 'judge', label: 'Judge' },
        { key: 'dataset', label: 'Dataset' },
        { key: 'control', label: 'Control' },
        { key: 'gate', label: 'gate' },
        { key: 'harmfulBeforePct', label: 'HF % before', unit: '%' },
        { key: 'harmfulAfterPct', label: 'HF % after', unit: '%' },
        { key: 'harmfulP', label: 'HF McNemar p', unit: 'p' },
        { key: 'wrong', label: 'wrong' },
        { key: 'helpfulBeforePct', label: 'HELP % before', unit: '%' },
        { key: 'helpfulAfterPct', label: 'HELP % after', unit: '%' },
        { key: 'helpfulP', label: 'HELP McNemar p', unit: 'p' },
        { key: 'n', label: 'n paired' },
        { key: 'harmfulAfterMitigatedPct', label: 'HF % after vs mitigated control', unit: '%' },
        { key: 'helpfulAfterMitigatedPct', label: 'HELP % after vs mitigated control', unit: '%' },
      ],
      rows: effects.map((effect) => ({
        mitigation: effect.mitigation,
        before: effect.before.condition,
        after: effect.after.condition,
        dimension: effect.dimension,
        scope: effect.scope,
        judge: effect.judge ?? POOLED,
        dataset: effect.dataset ?? POOLED,
        control: 'unmitigated',
        gate: effect.before.gate,
        harmfulBeforePct: percent(effect.before.harmfulFlipRate),
        harmfulAfterPct: percent(effect.after.harmfulFlipRate),
        harmfulP: effect.harmfulTest.pValue,
        wrong: effect.before.wrong,
        helpfulBeforePct: percent(effect.before.helpfulFlipRate),
        helpfulAfterPct: percent(effect.after.helpfulFlipRate),
        helpfulP: effect.helpfulTest.pValue,
        n: effect.n,
        harmfulAfterMitigatedPct: percent(mitigated(effect)?.harmfulFlipRate ?? null),
        helpfulAfterMitigatedPct: percent(mitigated(effect)?.helpfulFlipRate ?? null),
      })),
      notes,
    },
    rows,
    effects,
  );
}
