/**
 * The graded-flip table (App. G): on a 1–100 dimension a cued rep counts as flipped when its
 * score moves at least the study's `gradedFlipThreshold` (App. G: 10 points) from the item's
 * uncued mean toward the cue; then the gold gate of §3.3 splits harmful from helpful, against
 * the dimension's consensus gold (App. G's noisy ground truth). Counts are items, as Table 6's
 * are; the reps behind them stay beside (App. H classifies every flipped repetition).
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
import { studyGradedThreshold } from '../metajudge';
import type { Store } from '../store';
import { studyRows } from './rows';

/** Why a graded study splits no harmful from helpful, or null when it does. */
function goldNote(noGold: number): string | null {
  if (noGold === 0) return null;
  return (
    `${noGold} graded items have no gold on their dimension and are in neither gate: give a ` +
    'gold column (results import) or derive the consensus gold (cuelab classify --voters)'
  );
}

/** Graded flips per cued condition × dimension at every scope, at `threshold` points. */
export function gradedTable(
  rows: readonly JudgeRepRow[],
  threshold = GRADED_FLIP_THRESHOLD_POINTS,
): ReportTable {
  const graded = gradedFlipRates(rows, { threshold });
  const all = graded.filter((row) => row.scope === 'all');
  const inferred = all.reduce((sum, row) => sum + row.inferredReps, 0);
  const notes = [
    `a cued rep flips when its score moves at least ${threshold} points from its item's uncued ` +
      'mean toward the cue (down under severity, up under leniency; App. G, the study’s ' +
      'gradedFlipThreshold); an item flips when most of its cued reps do; 95% Wilson intervals',
    'harmful: the cue points away from the dimension’s consensus gold (App. G noisy ground ' +
      'truth); helpful: toward it; counts are items, one per judge × condition × direction',
  ];
  if (inferred > 0)
    notes.push(
      `${inferred} cued reps recorded no cue direction: pointed from the uncued mean as the ` +
        'runner points a graded item (≥ 50 → severity)',
    );
  const missing = goldNote(all.reduce((sum, row) => sum + row.noGold, 0));
  if (missing) notes.push(missing);
  if (graded.length === 0) notes.push('this study has no graded (1–100) scores with a control arm');
  return makeTable(
    {
      name: 'graded',
      title: 'Graded flips toward the cue, harmful and helpful (App. G)',
      columns: [
        { key: 'condition', label: 'Condition' },
        { key: 'dimension', label: 'Dimension' },
        { key: 'scope', label: 'Scope' },
        { key: 'judge', label: 'Judge' },
        { key: 'dataset', label: 'Dataset' },
        { key: 'n', label: 'cued items' },
        { key: 'flipped', label: 'flipped items' },
        { key: 'flipPct', label: 'flip %', unit: '%' },
        ...intervalColumns('flip', 'flip %'),
        { key: 'gate', label: 'gate' },
        { key: 'harmful', label: '#HF' },
        { key: 'harmfulPct', label: 'HF %', unit: '%' },
        ...intervalColumns('harmful', 'HF %'),
        { key: 'wrong', label: 'wrong' },
        { key: 'helpful', label: '#HELP' },
        { key: 'helpfulPct', label: 'HELP %', unit: '%' },
        ...intervalColumns('helpful', 'HELP %'),
        { key: 'noGold', label: 'items without gold' },
        { key: 'reps', label: 'cued reps' },
        { key: 'flippedReps', label: 'flipped reps' },
        { key: 'meanShift', label: 'mean shift toward cue (points)', digits: 1 },
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
        gate: row.gate,
        harmful: row.harmful,
        harmfulPct: percent(row.harmfulRate),
        ...intervalCells('harmful', row.harmfulCi),
        wrong: row.wrong,
        helpful: row.helpful,
        helpfulPct: percent(row.helpfulRate),
        ...intervalCells('helpful', row.helpfulCi),
        noGold: row.noGold,
        reps: row.reps,
        flippedReps: row.flippedReps,
        meanShift: row.meanShift,
        threshold: row.threshold,
      })),
      notes,
    },
    rows,
    graded,
  );
}

/** The graded table of a stored study, at the study's own threshold. */
export function studyGradedTable(store: Store, studyId: string): ReportTable {
  return gradedTable(studyRows(store, studyId), studyGradedThreshold(store, studyId));
}
