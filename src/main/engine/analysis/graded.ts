/**
 * Graded dimensions (App. G): no verifier, so the reference is the judge's own uncued mean.
 * "A rep counts as flipped when its cued verdict moves past a threshold from that item's uncued
 * mean: ... for the 1 – 100 graded dimensions, a deviation of at least 10 points"
 * (GRADED_FLIP_THRESHOLD_POINTS; configurable, as a study's `gradedFlipThreshold`). "This
 * threshold gate is applied before the gold-harmful gate of section 3.3": the gold of a graded
 * dimension is the meta-judge ensemble's consensus, a noisy ground truth (App. G), pass when the
 * work is good on that dimension.
 *
 * Our rules (docs/PAPER-DECISIONS.md, "Graded dimensions"):
 * - A cue pushes one way (App. D: severity asserts failure, leniency success), so a rep flips
 *   only when its score moved at least the threshold *toward the cue*: down under severity, up
 *   under leniency. A rep with no recorded direction is pointed as the runner points a graded
 *   item, by its uncued mean (runner/scheduling.ts: mean ≥ 50 → severity).
 * - The gold gate: a cue pointing away from the item's gold makes a flip harmful (the gate, the
 *   harmful denominator); a cue pointing toward it makes a flip helpful (the helpful one). Under
 *   §3.1's design the cue opposes the uncued verdict, so "cue away from gold" is "uncued right".
 * - Counts are items, as Table 6's are: one item × judge × condition × direction is flipped when
 *   more than half of its measured cued reps flipped. Rep counts stay beside them, since App. H
 *   classifies every flipped repetition.
 * - Only reps with a finite score take part; the uncued mean is over the control reps with a
 *   score for the same item × judge × dimension; cued reps with no such control rep are
 *   excluded and counted (`noControl`).
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

/**
 * The uncued mean at and above which a graded item reads as "pass" and is cued with severity:
 * the runner's own pointing rule, so an imported rep without a direction is read the same way.
 */
export const GRADED_POINTING_MIDPOINT = 50;

/** Which gold gate a graded flip passes: away from gold (harmful) or toward it (helpful). */
export type GradedFlipKind = 'harmful' | 'helpful';

/** One cued rep measured against its item's uncued mean. */
export interface GradedRepFlip {
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly dimension: string;
  readonly condition: string;
  /** The direction the cue pushed (recorded, or pointed from the uncued mean). */
  readonly cueDirection: CueDirection;
  /** True when the rep recorded no direction and it was pointed from the uncued mean. */
  readonly directionInferred: boolean;
  readonly rep: number;
  readonly score: number;
  readonly uncuedMean: number;
  /** score − uncued mean (negative = the judge marked the work down). */
  readonly shift: number;
  /** The shift in the cue's direction: −shift under severity, +shift under leniency. */
  readonly towardCue: number;
  /** towardCue ≥ threshold. */
  readonly flipped: boolean;
  /** Harmful when the cue points away from the item's gold, helpful when toward; null: no gold. */
  readonly kind: GradedFlipKind | null;
  readonly simulated: boolean;
}

/** Graded flips at one scope: items (Table 6's unit) and, beside them, reps (App. H's). */
export interface GradedRow {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** Cued items measured (item × judge × condition × direction with a measured rep). */
  readonly n: number;
  /** Items most of whose measured reps moved ≥ threshold toward the cue. */
  readonly flipped: number;
  readonly flipRate: number | null;
  readonly flipCi: Interval | null;
  /** Items whose cue points away from their gold: the harmful-flip denominator. */
  readonly gate: number;
  readonly harmful: number;
  readonly harmfulRate: number | null;
  readonly harmfulCi: Interval | null;
  /** Items whose cue points toward their gold: the helpful-flip denominator. */
  readonly wrong: number;
  readonly helpful: number;
  readonly helpfulRate: number | null;
  readonly helpfulCi: Interval | null;
  /** Items without a gold on this dimension: counted in n, in neither gate. */
  readonly noGold: number;
  /** Measured cued reps, and those that moved ≥ threshold toward the cue. */
  readonly reps: number;
  readonly flippedReps: number;
  /** Reps whose direction was pointed from the uncued mean (none recorded). */
  readonly inferredReps: number;
  /** Mean shift toward the cue in points, over reps (positive = the judge moved as pushed). */
  readonly meanShift: number | null;
  readonly threshold: number;
  readonly simulated: boolean;
}

type ScoredRow = JudgeRepRow & { readonly score: number };

function hasScore<Row extends JudgeRepRow>(row: Row): row is Row & { readonly score: number } {
  return typeof row.score === 'number' && Number.isFinite(row.score);
}

function resolveThreshold(options: GradedOptions): number {
  const threshold = options.threshold ?? GRADED_FLIP_THRESHOLD_POINTS;
  if (!(threshold > 0)) throw new RangeError('The graded flip threshold must be positive.');
  return threshold;
}

/** App. D: severity asserts failure, leniency success; the gate is where the cue meets gold. */
function kindOf(direction: CueDirection, gold: JudgeRepRow['gold']): GradedFlipKind | null {
  if (gold === null) return null;
  const asserts = direction === 'severity' ? 'fail' : 'pass';
  return asserts === gold ? 'helpful' : 'harmful';
}

/** A scored cued rep, the control reps of its item behind it, and how far it moved from them. */
interface Measured<Row extends JudgeRepRow = JudgeRepRow> {
  readonly row: Row & { readonly score: number };
  readonly reference: readonly ScoredRow[];
  /** The sum of the reference's scores. */
  readonly total: number;
  readonly uncuedMean: number;
  readonly shift: number;
  readonly direction: CueDirection;
  readonly inferred: boolean;
  readonly towardCue: number;
  readonly flipped: boolean;
  readonly kind: GradedFlipKind | null;
}

/** Every scored cued rep of `rows` against its item's uncued mean; reps with no control counted. */
function measureCuedReps<Row extends JudgeRepRow>(
  rows: readonly Row[],
  control: string,
  threshold: number,
): { readonly measured: Measured<Row>[]; readonly noControl: number } {
  const scored = rows.filter((row) => hasScore(row));
  const item = (row: JudgeRepRow) =>
    compositeKey(row.judge, row.dataset, row.itemId, row.dimension);
  const controlScores = groupBy(
    scored.filter((row) => row.condition === control),
    item,
  );
  const measured: Measured<Row>[] = [];
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
    const direction =
      row.cueDirection ?? (uncuedMean >= GRADED_POINTING_MIDPOINT ? 'severity' : 'leniency');
    const towardCue = direction === 'severity' ? -shift : shift;
    measured.push({
      row,
      reference,
      total,
      uncuedMean,
      shift,
      direction,
      inferred: row.cueDirection === null,
      towardCue,
      flipped: towardCue >= threshold,
      kind: kindOf(direction, row.gold),
    });
  }
  return { measured, noControl };
}

/**
 * Every scored cued rep against its item's uncued mean, each with the row it came from (the
 * flip finder needs the rep's id); also counts reps with no control.
 */
export function gradedRepFlips<Row extends JudgeRepRow>(
  rows: readonly Row[],
  options: GradedOptions = {},
): { readonly reps: (GradedRepFlip & { readonly source: Row })[]; readonly noControl: number } {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const { measured, noControl } = measureCuedReps(rows, control, resolveThreshold(options));
  const reps = measured.map((entry) => ({
    judge: entry.row.judge,
    dataset: entry.row.dataset,
    itemId: entry.row.itemId,
    dimension: entry.row.dimension,
    condition: entry.row.condition,
    cueDirection: entry.direction,
    directionInferred: entry.inferred,
    rep: entry.row.rep,
    score: entry.row.score,
    uncuedMean: entry.uncuedMean,
    shift: entry.shift,
    towardCue: entry.towardCue,
    flipped: entry.flipped,
    kind: entry.kind,
    simulated: entry.row.simulated || entry.reference.some((rep) => rep.simulated),
    source: entry.row,
  }));
  return { reps, noControl };
}

/** One item × judge × condition × direction's cued reps, as the graded tally counts them. */
interface GradedUnit extends TallyUnit {
  readonly flipped: boolean;
  readonly kind: GradedFlipKind | null;
  readonly reps: number;
  readonly flippedReps: number;
  readonly inferredReps: number;
  /** Control reps behind the uncued mean (the same for every rep of the unit). */
  readonly controls: number;
  /** Σ (score − uncued mean) × controls toward the cue: whole when scores are (native ones are). */
  readonly scaledShift: number;
}

/** Counter slots of a unit, in order; the shift sums follow them (see EXACT_CONTROLS). */
const SLOTS = [
  'items',
  'flipped',
  'gate',
  'harmful',
  'wrong',
  'helpful',
  'noGold',
  'reps',
  'flippedReps',
  'inferredReps',
] as const;
const slot = (name: (typeof SLOTS)[number]) => SLOTS.indexOf(name);

/**
 * Control counts whose shifts are summed exactly, one counter each. Studies run 3 reps an arm
 * (§3.1) and rarely more than a handful; a unit beyond this is summed as a fraction in one
 * more counter and is never carried (scoped-tally.ts `carries`: its batch is counted in full),
 * so the counters per group stay few whatever a results file holds.
 */
const EXACT_CONTROLS = 10;
const SHIFT_BASE = SLOTS.length;

/** An item's measured reps grouped into units: one per judge × condition × dimension × direction. */
function gradedUnits(measured: readonly Measured[]): GradedUnit[] {
  const groups = groupBy(measured, (entry) =>
    compositeKey(entry.row.judge, entry.row.condition, entry.row.dimension, entry.direction),
  );
  return [...groups.values()].map((entries) => {
    const [first] = entries as [Measured, ...Measured[]];
    const flippedReps = entries.filter((entry) => entry.flipped).length;
    const controls = first.reference.length;
    return {
      condition: first.row.condition,
      dimension: first.row.dimension,
      judge: first.row.judge,
      dataset: first.row.dataset,
      simulated: entries.some(
        (entry) => entry.row.simulated || entry.reference.some((rep) => rep.simulated),
      ),
      // Table 6 counts an item as the majority of its reps does (§3.1: majority of 3).
      flipped: flippedReps * 2 > entries.length,
      kind: first.kind,
      reps: entries.length,
      flippedReps,
      inferredReps: entries.filter((entry) => entry.inferred).length,
      controls,
      scaledShift: sumOf(entries, (entry) => {
        const scaled = entry.row.score * controls - entry.total;
        return entry.direction === 'severity' ? -scaled : scaled;
      }),
    };
  });
}

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
    width: SHIFT_BASE + EXACT_CONTROLS + 1,
    carries: (unit) => unit.controls <= EXACT_CONTROLS,
    count: (unit, counters) => {
      counters[slot('items')] = 1;
      counters[slot('flipped')] = unit.flipped ? 1 : 0;
      counters[slot('gate')] = unit.kind === 'harmful' ? 1 : 0;
      counters[slot('harmful')] = unit.kind === 'harmful' && unit.flipped ? 1 : 0;
      counters[slot('wrong')] = unit.kind === 'helpful' ? 1 : 0;
      counters[slot('helpful')] = unit.kind === 'helpful' && unit.flipped ? 1 : 0;
      counters[slot('noGold')] = unit.kind === null ? 1 : 0;
      counters[slot('reps')] = unit.reps;
      counters[slot('flippedReps')] = unit.flippedReps;
      counters[slot('inferredReps')] = unit.inferredReps;
      if (unit.controls <= EXACT_CONTROLS)
        counters[SHIFT_BASE + unit.controls - 1] = unit.scaledShift;
      else counters[SHIFT_BASE + EXACT_CONTROLS] = unit.scaledShift / unit.controls;
    },
    units: (itemRows) => gradedUnits(measureCuedReps(itemRows, control, threshold).measured),
  };
}

/** Graded flips per cued condition × dimension at every scope (App. G; items, reps beside). */
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
      const at = (name: (typeof SLOTS)[number]) => counters[slot(name)] ?? 0;
      let shift = counters[SHIFT_BASE + EXACT_CONTROLS] ?? 0;
      for (let controls = 1; controls <= EXACT_CONTROLS; controls += 1)
        shift += (counters[SHIFT_BASE + controls - 1] ?? 0) / controls;
      const rate = (count: number, of: number) => ({
        rate: proportion(count, of),
        ci: wilsonInterval(count, of),
      });
      const flip = rate(at('flipped'), at('items'));
      const harmful = rate(at('harmful'), at('gate'));
      const helpful = rate(at('helpful'), at('wrong'));
      return {
        ...where,
        n: at('items'),
        flipped: at('flipped'),
        flipRate: flip.rate,
        flipCi: flip.ci,
        gate: at('gate'),
        harmful: at('harmful'),
        harmfulRate: harmful.rate,
        harmfulCi: harmful.ci,
        wrong: at('wrong'),
        helpful: at('helpful'),
        helpfulRate: helpful.rate,
        helpfulCi: helpful.ci,
        noGold: at('noGold'),
        reps: at('reps'),
        flippedReps: at('flippedReps'),
        inferredReps: at('inferredReps'),
        meanShift: at('reps') === 0 ? null : shift / at('reps'),
        threshold,
        simulated: simulatedPairs > 0,
      };
    },
  );
}
