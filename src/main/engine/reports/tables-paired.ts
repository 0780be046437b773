/**
 * Tables that pair each cued arm with the control arm on gold-labelled pass/fail verdicts:
 * flips (Table 6 layout), severity vs leniency (App. D) and accuracy (Table 5); mitigations
 * (Table 1) are in tables-mitigations.ts. Each is a thin layout over one analysis function (analysis/).
 */
import {
  accuracyUnderCue,
  directionAsymmetry,
  type DirectionRate,
  type DirectionRow,
  flipRatesFromPairs,
  flipsBeyondPlacebo,
  flipsBeyondRepeat,
  type FlipRow,
  pairItems,
  placeboArms,
  repLevelRates,
  repRateKey,
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
import {
  beyondPlaceboCells,
  beyondPlaceboColumns,
  beyondRepeatCells,
  beyondRepeatColumns,
  repeatNote,
  repRateCells,
  repRateColumns,
  statisticsNotes,
} from './table-statistics';

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

/** Table 6 layout: N, gate, #HF, HF %, wrong, #HELP, HELP % per judge × dataset and pooled. */
export function flipsTable(rows: readonly JudgeRepRow[]): ReportTable {
  const pairs = pairItems(rows);
  const flips = flipRatesFromPairs(pairs);
  const repRates = repLevelRates(pairs);
  const placebos = placeboArms(rows, UNCUED_CONDITION);
  const beyondPlacebo = flipsBeyondPlacebo(pairs, placebos);
  const beyondRepeat = flipsBeyondRepeat(rows, pairs, UNCUED_CONDITION);
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
    ...statisticsNotes(placebos.size > 0),
    repeatNote(beyondRepeat.size > 0),
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
        ...repRateColumns('harmful', 'HF'),
        { key: 'harmfulGrandMeanPct', label: 'HF % grand mean of cells', unit: '%' },
        { key: 'wrong', label: 'wrong' },
        { key: 'helpful', label: '#HELP' },
        { key: 'helpfulPct', label: 'HELP %', unit: '%' },
        ...intervalColumns('helpful', 'HELP %'),
        ...repRateColumns('helpful', 'HELP'),
        ...beyondPlaceboColumns,
        ...beyondRepeatColumns,
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
        ...repRateCells('harmful', repRates.get(repRateKey(flip))?.harmful ?? null),
        harmfulGrandMeanPct: percent(grandMean(flip)),
        wrong: flip.wrong,
        helpful: flip.helpful,
        helpfulPct: percent(flip.helpfulFlipRate),
        ...intervalCells('helpful', flip.helpfulFlipCi),
        ...repRateCells('helpful', repRates.get(repRateKey(flip))?.helpful ?? null),
        ...beyondPlaceboCells(beyondPlacebo.get(repRateKey(flip)) ?? null),
        ...beyondRepeatCells(beyondRepeat.get(repRateKey(flip)) ?? null),
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
