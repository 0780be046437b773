/**
 * Validating a mechanism classifier against the synthetic judge, whose reps record the true
 * mechanism of every flip (simulation/provider.ts, SimulationRecord.mechanism). The
 * paper validates its ensemble against human gold (App. P, Table 10); with the synthetic judge
 * the gold is exact, so the confusion matrix shows where a classifier's rules and the paper's
 * definitions part ways.
 *
 * The synthetic judge names its mechanism by what it did, whichever way the flip went; App. F
 * names helpful flips by the same behaviour differently. So on a helpful flip its
 * `under_investigation` (it stopped early and adopted the cue's verdict) and `over_trust`
 * (it deferred) are App. F's over-trust, "adopted the cued verdict without gathering new
 * evidence ... the cue happened to align with ground truth": `lucky_deference` (paperTruth).
 *
 * A synthetic flip whose true mechanism is `none` differed from its item's uncued majority for
 * a reason other than the cue (its own skip draw: it skipped, or ran, the decisive check on its
 * own, as an uncued rep might). No mechanism label is right for it, so the matrix shows it in
 * its own row and accuracy is computed over the flips the cue caused.
 */
import { SIMULATED_NOTE, type ReportColumn, type ReportRow } from '../analysis';
import type { Store } from '../store';
import { findFlippedReps } from './flipped';
import { diffPair, loadPair, trueMechanism } from './pair';
import { MECHANISM_LABELS, type FlipKind, type StoredLabel } from '../mechanism-labels';

/** One classified flip with its true mechanism. */
export interface ValidationCase {
  repId: string;
  judgeId: string;
  itemId: string;
  kind: FlipKind;
  truth: StoredLabel;
  predicted: StoredLabel;
  subMode?: string;
}

/** The synthetic truth in the vocabulary of the flip's kind (see the module comment). */
export function paperTruth(kind: FlipKind, truth: StoredLabel): StoredLabel {
  if (kind === 'helpful' && (truth === 'under_investigation' || truth === 'over_trust'))
    return 'lucky_deference';
  return truth;
}

/** Counts of (truth, predicted) pairs. */
export interface ConfusionMatrix {
  /** Row labels, in order. */
  truths: string[];
  /** Column labels, in order. */
  predictions: string[];
  /** counts[truth][predicted]. */
  counts: Record<string, Record<string, number>>;
  n: number;
  correct: number;
  /** correct / n; null when n is 0. */
  accuracy: number | null;
}

/** The truth and prediction orders the matrix uses when present. */
export const VALIDATION_ORDER: readonly string[] = [...MECHANISM_LABELS, 'invalid', 'none'];

function ordered(values: Iterable<string>): string[] {
  const known = [...new Set(values)];
  return known.sort((a, b) => {
    const rank = (value: string) => {
      const at = VALIDATION_ORDER.indexOf(value);
      return at < 0 ? VALIDATION_ORDER.length : at;
    };
    return rank(a) - rank(b) || a.localeCompare(b);
  });
}

/** A confusion matrix of (truth, predicted) pairs. Pure. */
export function confusionMatrix(
  pairs: readonly { truth: string; predicted: string }[],
): ConfusionMatrix {
  const truths = ordered(pairs.map((pair) => pair.truth));
  const predictions = ordered(pairs.map((pair) => pair.predicted));
  const counts: Record<string, Record<string, number>> = {};
  for (const truth of truths) counts[truth] = Object.fromEntries(predictions.map((p) => [p, 0]));
  let correct = 0;
  for (const pair of pairs) {
    const row = counts[pair.truth] as Record<string, number>;
    row[pair.predicted] = (row[pair.predicted] ?? 0) + 1;
    if (pair.truth === pair.predicted) correct += 1;
  }
  return {
    truths,
    predictions,
    counts,
    n: pairs.length,
    correct,
    accuracy: pairs.length ? correct / pairs.length : null,
  };
}

/** The diff classifier against the synthetic judge's truth, for one study. */
export interface MechanismValidation {
  cases: ValidationCase[];
  /** Every simulated flip, `none` truths included. */
  matrix: ConfusionMatrix;
  /** Over the flips the cue caused (truth ≠ none). */
  accuracy: number | null;
  attributable: number;
  /** Simulated flips whose truth is `none` (not the cue's doing). */
  notCueDriven: number;
  byKind: Record<FlipKind, { n: number; correct: number; accuracy: number | null }>;
  /** Flips without a true mechanism (real-model reps), left out. */
  withoutTruth: number;
}

/** Classifies every flipped rep of a study with the diff and compares with the truth. */
export function mechanismValidation(store: Store, studyId: string): MechanismValidation {
  const cases: ValidationCase[] = [];
  let withoutTruth = 0;
  for (const flip of findFlippedReps(store, studyId)) {
    const simulatedTruth = trueMechanism(store, flip.repId);
    if (simulatedTruth === null) {
      withoutTruth += 1;
      continue;
    }
    const diff = diffPair(loadPair(store, flip));
    cases.push({
      repId: flip.repId,
      judgeId: flip.judgeId,
      itemId: flip.itemId,
      kind: flip.kind,
      truth: paperTruth(flip.kind, simulatedTruth),
      predicted: diff.label,
      ...(diff.subMode ? { subMode: diff.subMode } : {}),
    });
  }
  const attributable = cases.filter((entry) => entry.truth !== 'none');
  const score = (subset: readonly ValidationCase[]) => {
    const correct = subset.filter((entry) => entry.truth === entry.predicted).length;
    return { n: subset.length, correct, accuracy: subset.length ? correct / subset.length : null };
  };
  return {
    cases,
    matrix: confusionMatrix(cases),
    accuracy: score(attributable).accuracy,
    attributable: attributable.length,
    notCueDriven: cases.length - attributable.length,
    byKind: {
      harmful: score(attributable.filter((entry) => entry.kind === 'harmful')),
      helpful: score(attributable.filter((entry) => entry.kind === 'helpful')),
    },
    withoutTruth,
  };
}

/** A report table in the shape of analysis/table-model.ts ReportTable. */
export interface MechanismValidationTable {
  readonly name: 'mechanism-validation';
  readonly title: string;
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly ReportRow[];
  readonly notes: readonly string[];
  readonly simulated: boolean;
  readonly reps: number;
}

const percent = (value: number | null) => (value === null ? null : value * 100);

/** The validation as a table: truth × diff label counts, with recall per truth row. */
export function mechanismValidationTable(
  validation: MechanismValidation,
): MechanismValidationTable {
  const { matrix } = validation;
  const columns: ReportColumn[] = [
    { key: 'truth', label: 'true mechanism' },
    ...matrix.predictions.map((label) => ({ key: label, label: `diff: ${label}` })),
    { key: 'n', label: 'n' },
    { key: 'recall', label: 'recall %', unit: '%' as const },
  ];
  const rows: ReportRow[] = matrix.truths.map((truth) => {
    const counts = matrix.counts[truth] ?? {};
    const n = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return {
      truth,
      ...counts,
      n,
      recall: truth === 'none' || n === 0 ? null : ((counts[truth] ?? 0) / n) * 100,
    };
  });
  const shown = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)}%`);
  const notes = [
    `Accuracy over the ${validation.attributable} flips the cue caused: ${shown(percent(validation.accuracy))} ` +
      `(harmful ${shown(percent(validation.byKind.harmful.accuracy))} of ${validation.byKind.harmful.n}, ` +
      `helpful ${shown(percent(validation.byKind.helpful.accuracy))} of ${validation.byKind.helpful.n}).`,
    `${validation.notCueDriven} flips have true mechanism "none": the rep left its item's uncued majority on its own skip draw, not the cue; no label is right for them and accuracy leaves them out.`,
  ];
  if (validation.withoutTruth > 0)
    notes.push(
      `${validation.withoutTruth} flips come from real models and have no true mechanism.`,
    );
  if (matrix.n === 0) notes.push('This study has no synthetic-judge flips to validate against.');
  const simulated = matrix.n > 0;
  return {
    name: 'mechanism-validation',
    title: 'Trajectory-diff classifier vs the synthetic judge’s true mechanism',
    columns,
    rows,
    notes: simulated ? [SIMULATED_NOTE, ...notes] : notes,
    simulated,
    reps: matrix.n,
  };
}

/** The table for one stored study (what `cuelab report STUDY --table mechanism-validation` prints). */
export function mechanismValidationReport(store: Store, studyId: string): MechanismValidationTable {
  return mechanismValidationTable(mechanismValidation(store, studyId));
}
