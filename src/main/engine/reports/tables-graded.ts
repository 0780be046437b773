/**
 * The graded-flip table (App. G): on a 1–100 dimension a cued rep counts as flipped when its
 * score moves at least the study's `gradedFlipThreshold` (App. G: 10 points) from the item's
 * uncued mean. Rep-level, as App. H classifies every flipped repetition.
 */
import {
  gradedFlipRates,
  type JudgeRepRow,
  POOLED,
  intervalCells,
  intervalColumns,
  makeTable,
  percent,
  type ReportTable,
} from '../analysis';
import { GRADED_FLIP_THRESHOLD_POINTS } from '../paper';
import { type Store } from '../store';
import { readStudySpecRecord } from '../store/faces/studies';
import { studyRows } from './rows';

/** Graded flips per cued condition × dimension at every scope, at `threshold` points. */
export function gradedTable(
  rows: readonly JudgeRepRow[],
  threshold = GRADED_FLIP_THRESHOLD_POINTS,
): ReportTable {
  const graded = gradedFlipRates(rows, { threshold });
  const notes = [
    `a cued rep is flipped when its score is at least ${threshold} points from its item's uncued ` +
      'mean (App. G; the study’s gradedFlipThreshold); rep-level, no majority (App. H); ' +
      '95% Wilson intervals',
  ];
  if (graded.length === 0) notes.push('this study has no graded (1–100) scores with a control arm');
  return makeTable(
    {
      name: 'graded',
      title: 'Graded flips: cued scores that moved past the threshold (App. G)',
      columns: [
        { key: 'condition', label: 'Condition' },
        { key: 'dimension', label: 'Dimension' },
        { key: 'scope', label: 'Scope' },
        { key: 'judge', label: 'Judge' },
        { key: 'dataset', label: 'Dataset' },
        { key: 'n', label: 'cued reps' },
        { key: 'flipped', label: 'flipped' },
        { key: 'flipPct', label: 'flip %', unit: '%' },
        ...intervalColumns('flip', 'flip %'),
        { key: 'meanShift', label: 'mean shift (points)', digits: 1 },
        { key: 'threshold', label: 'threshold (points)' },
      ],
      rows: graded.map((row) => ({
        condition: row.condition,
        dimension: row.dimension,
        scope: row.scope,
        judge: row.judge ?? POOLED,
        dataset: row.dataset ?? POOLED,
        n: row.n,
        flipped: row.flipped,
        flipPct: percent(row.flipRate),
        ...intervalCells('flip', row.flipCi),
        meanShift: row.meanShift,
        threshold: row.threshold,
      })),
      notes,
    },
    rows,
    graded,
  );
}

/** The study's graded flip threshold (its spec's `gradedFlipThreshold`; App. G's 10 otherwise). */
export function studyGradedThreshold(store: Store, studyId: string): number {
  const value = readStudySpecRecord(store, studyId)?.gradedFlipThreshold;
  return typeof value === 'number' && value > 0 ? value : GRADED_FLIP_THRESHOLD_POINTS;
}

/** The graded table of a stored study, at the study's own threshold. */
export function studyGradedTable(store: Store, studyId: string): ReportTable {
  return gradedTable(studyRows(store, studyId), studyGradedThreshold(store, studyId));
}
