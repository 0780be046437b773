/**
 * Graded dimensions (App. G): no gold label, so the reference is the judge's own uncued mean.
 * "A rep counts as flipped when its cued verdict moves past a threshold from that item's uncued
 * mean: ... for the 1 – 100 graded dimensions, a deviation of at least 10 points"
 * (GRADED_FLIP_THRESHOLD_POINTS; configurable, as a study's `gradedFlipThreshold`). Reps are not
 * majority-collapsed (App. H: "every repetition that flipped is classified individually").
 *
 * Our rules: only reps with a finite score take part; the uncued mean is over the control reps
 * with a score for the same item × judge × dimension; cued reps of an item with no such control
 * rep are excluded and counted (`noControl`).
 */
import { GRADED_FLIP_THRESHOLD_POINTS } from '../paper';
import { compositeKey, groupBy, sumOf } from './group';
import { rowFacts } from './row-facts';
import { TABLE_6_LEVELS, rowTally, type TallySpec, type TallyUnit } from './scoped-tally';
import type { ControlOptions, CueDirection, Interval, JudgeRepRow, Scope } from './types';
import { UNCUED_CONDITION } from './types';
import { proportion, wilsonInterval } from './wilson';

/** Options: control arm and the flip threshold in points (App. G: 10). */
export interface GradedOptions extends ControlOptions {
  readonly threshold?: number;
}

/** One cued rep measured against its item's uncued mean. */
export interface GradedRepFlip {
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly dimension: string;
  readonly condition: string;
  readonly cueDirection: CueDirection | null;
  readonly rep: number;
  readonly score: number;
  readonly uncuedMean: number;
  /** score − uncued mean (negative = the judge marked the work down). */
  readonly shift: number;
  /** |shift| ≥ threshold. */
  readonly flipped: boolean;
  readonly simulated: boolean;
}

/** Graded flip rate over reps at one scope. */
export interface GradedRow {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** Cued reps measured. */
  readonly n: number;
  readonly flipped: number;
  readonly flipRate: number | null;
  readonly flipCi: Interval | null;
  /** Mean signed shift in points. */
  readonly meanShift: number | null;
  readonly threshold: number;
  readonly simulated: boolean;
}

function hasScore(row: JudgeRepRow): row is JudgeRepRow & { readonly score: number } {
  return typeof row.score === 'number' && Number.isFinite(row.score);
}

function resolveThreshold(options: GradedOptions): number {
  const threshold = options.threshold ?? GRADED_FLIP_THRESHOLD_POINTS;
  if (!(threshold > 0)) throw new RangeError('The graded flip threshold must be positive.');
  return threshold;
}

type ScoredRow = JudgeRepRow & { readonly score: number };

/** A scored cued rep, the control reps of its item behind it, and how far it moved from them. */
interface Measured {
  readonly row: ScoredRow;
  readonly reference: readonly ScoredRow[];
  /** The sum of the reference's scores. */
  readonly total: number;
  readonly uncuedMean: number;
  readonly shift: number;
  readonly flipped: boolean;
}

/** Every scored cued rep of `rows` against its item's uncued mean; reps with no control counted. */
function measureCuedReps(
  rows: readonly JudgeRepRow[],
  control: string,
  threshold: number,
): { readonly measured: Measured[]; readonly noControl: number } {
  const scored = rows.filter(hasScore);
  const item = (row: JudgeRepRow) =>
    compositeKey(row.judge, row.dataset, row.itemId, row.dimension);
  const controlScores = groupBy(
    scored.filter((row) => row.condition === control),
    item,
  );
  const measured: Measured[] = [];
  let noControl = 0;
  for (const row of scored) {
    // A mitigated control (`uncued+MITIGATION`, §3.4) is a control, never a cued rep.
    if (row.condition === control || row.condition.startsWith(`${control}+`)) continue;
    const reference = controlScores.get(item(row));
    if (!reference) {
      noControl += 1;
      continue;
    }
    const total = sumOf(reference, (rep) => rep.score);
    const uncuedMean = total / reference.length;
    const shift = row.score - uncuedMean;
    measured.push({
      row,
      reference,
      total,
      uncuedMean,
      shift,
      flipped: Math.abs(shift) >= threshold,
    });
  }
  return { measured, noControl };
}

/** Every scored cued rep against its item's uncued mean; also counts reps with no control. */
export function gradedRepFlips(
  rows: readonly JudgeRepRow[],
  options: GradedOptions = {},
): { readonly reps: GradedRepFlip[]; readonly noControl: number } {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const { measured, noControl } = measureCuedReps(rows, control, resolveThreshold(options));
  const reps = measured.map(({ row, reference, uncuedMean, shift, flipped }) => ({
    judge: row.judge,
    dataset: row.dataset,
    itemId: row.itemId,
    dimension: row.dimension,
    condition: row.condition,
    cueDirection: row.cueDirection,
    rep: row.rep,
    score: row.score,
    uncuedMean,
    shift,
    flipped,
    simulated: row.simulated || reference.some((rep) => rep.simulated),
  }));
  return { reps, noControl };
}

/** One cued rep against its item's uncued mean, as the graded tally counts it. */
interface GradedUnit extends TallyUnit {
  readonly flipped: boolean;
  /** Control reps behind the uncued mean. */
  readonly controls: number;
  /** (score − uncued mean) × controls: a whole number when scores are (native ones are). */
  readonly scaledShift: number;
}

/**
 * Control counts whose shifts are summed exactly, one counter each. Studies run 3 reps an arm
 * (§3.1) and rarely more than a handful; a unit beyond this is summed as a fraction in one
 * more counter and is never carried (scoped-tally.ts `carries`: its batch is counted in full),
 * so the counters per group stay few whatever a results file holds.
 */
const EXACT_CONTROLS = 10;

/**
 * The graded flips as a tally over rows (scoped-tally.ts `rowTally`): each item's cued reps
 * against that item's uncued mean, so a live refresh measures only the batch's items. The
 * shift is summed per control count as a whole number (score × k − the k control scores), and
 * divided only when the rows are listed, so a carried tally and a fresh one give the same mean.
 */
function gradedTally(
  control: string,
  threshold: number,
): TallySpec<Scope, GradedUnit, JudgeRepRow> {
  return {
    id: `graded\u0000${control}\u0000${threshold}`,
    levels: TABLE_6_LEVELS,
    width: 3 + EXACT_CONTROLS,
    carries: (unit) => unit.controls <= EXACT_CONTROLS,
    count: (unit, counters) => {
      counters[0] = 1;
      counters[1] = unit.flipped ? 1 : 0;
      if (unit.controls <= EXACT_CONTROLS) counters[1 + unit.controls] = unit.scaledShift;
      else counters[2 + EXACT_CONTROLS] = unit.scaledShift / unit.controls;
    },
    units: (itemRows) =>
      measureCuedReps(itemRows, control, threshold).measured.map(
        ({ row, reference, total, flipped }) => ({
          condition: row.condition,
          dimension: row.dimension,
          judge: row.judge,
          dataset: row.dataset,
          simulated: row.simulated || reference.some((rep) => rep.simulated),
          flipped,
          controls: reference.length,
          scaledShift: row.score * reference.length - total,
        }),
      ),
  };
}

/** Graded flip rates per cued condition × dimension at every scope (rep-level, App. G / H). */
export function gradedFlipRates(
  rows: readonly JudgeRepRow[],
  options: GradedOptions = {},
): GradedRow[] {
  const threshold = resolveThreshold(options);
  // Most studies score nothing: the row facts say so without a pass over the study.
  if (rowFacts(rows).scoreDimensions.length === 0) return [];
  const control = options.controlCondition ?? UNCUED_CONDITION;
  return rowTally(rows, gradedTally(control, threshold)).map(
    ({ counters, simulatedPairs, ...where }) => {
      const [n = 0, flipped = 0] = counters;
      let shift = counters[2 + EXACT_CONTROLS] ?? 0;
      for (let controls = 1; controls <= EXACT_CONTROLS; controls += 1)
        shift += (counters[1 + controls] ?? 0) / controls;
      return {
        ...where,
        n,
        flipped,
        flipRate: proportion(flipped, n),
        flipCi: wilsonInterval(flipped, n),
        meanShift: n === 0 ? null : shift / n,
        threshold,
        simulated: simulatedPairs > 0,
      };
    },
  );
}
