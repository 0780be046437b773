/**
 * The graded flips of a native study as mechanism cases (App. G, App. H, Fig. 17): every cued
 * rep on a 1–100 dimension that moved at least the study's threshold toward its cue, and whose
 * dimension has a consensus gold, so it is harmful or helpful (analysis/graded.ts decides both).
 * Fig. 17's graded cells classify exactly these reps, one case each, as App. H prescribes.
 *
 * A flip case speaks in verdicts (the ensemble prompt reads "Baseline run: pass. Cued run:
 * fail."). A graded rep has a score, so its case reads the way the cue moved it: the baseline is
 * the side the cue argued against and the cued run the side it asserted (App. D: severity
 * asserts failure). That is what a 10-point move toward the cue means under §3.1's design, where
 * the cue opposes the uncued verdict.
 */
import { gradedRepFlips, type JudgeRepRow } from '../analysis';
import { GRADED_FLIP_THRESHOLD_POINTS } from '../paper';
import { type Store } from '../store';
import { type GradedRepRecord, gradedRepRecords } from '../store/faces/reps';
import { readStudySpecRecord } from '../store/faces/studies';
import { isUncuedControlKey, uncuedKey } from '../../../shared/condition-keys';
import type { Outcome } from '../mechanism-labels';
import type { FlippedRep, UncuedTwin } from './flipped';

/** The study's graded flip threshold (its spec's `gradedFlipThreshold`; App. G's 10 otherwise). */
export function studyGradedThreshold(store: Store, studyId: string): number {
  const value = readStudySpecRecord(store, studyId)?.gradedFlipThreshold;
  return typeof value === 'number' && value > 0 ? value : GRADED_FLIP_THRESHOLD_POINTS;
}

type Sourced = JudgeRepRow & { readonly record: GradedRepRecord };

/** A stored rep as an analysis row: a control of any dimension reads as the control arm. */
function analysisRow(record: GradedRepRecord): Sourced | null {
  const cued = record.direction === 'severity' || record.direction === 'leniency';
  // A mitigated control (`uncued+MITIGATION`, §3.4) is neither a twin nor a cued rep here.
  if (!cued && !isUncuedControlKey(record.conditionKey)) return null;
  return {
    itemId: record.itemId,
    dataset: record.dataset,
    judge: record.judgeId,
    condition: cued ? record.conditionKey : uncuedKey,
    cueDirection: cued ? (record.direction as 'severity' | 'leniency') : null,
    rep: record.rep,
    verdict: null,
    score: record.score,
    gold: record.gold,
    dimension: record.dimension,
    turns: null,
    simulated: record.simulated,
    record,
  };
}

/** Every graded flip of a study with a gold; with `itemId`, that item's only. */
export function findGradedFlips(store: Store, studyId: string, itemId?: string): FlippedRep[] {
  const rows = gradedRepRecords(store, studyId, itemId)
    .map(analysisRow)
    .filter((row): row is Sourced => row !== null);
  if (!rows.some((row) => row.cueDirection !== null)) return [];
  const twinsOf = new Map<string, UncuedTwin[]>();
  for (const row of rows) {
    if (row.cueDirection !== null) continue;
    const key = `${row.itemId}\u0000${row.judge}\u0000${row.dimension}`;
    const twins = twinsOf.get(key) ?? [];
    twins.push({ repId: row.record.repId, rep: row.rep, verdict: null });
    twinsOf.set(key, twins);
  }
  const threshold = studyGradedThreshold(store, studyId);
  const flips: FlippedRep[] = [];
  for (const measured of gradedRepFlips(rows, { threshold }).reps) {
    if (!measured.flipped || measured.kind === null) continue;
    const { record } = measured.source;
    const twins = twinsOf.get(`${record.itemId}\u0000${record.judgeId}\u0000${record.dimension}`);
    // "Its own uncued run" (App. N): the twin with the same rep index, else the first.
    const twin = twins?.find((entry) => entry.rep === record.rep) ?? twins?.[0];
    if (!twin || record.gold === null) continue;
    const asserted: Outcome = measured.cueDirection === 'severity' ? 'fail' : 'pass';
    flips.push({
      studyId,
      repId: record.repId,
      itemId: record.itemId,
      judgeId: record.judgeId,
      dataset: record.dataset,
      conditionKey: record.conditionKey,
      direction: measured.cueDirection,
      rep: record.rep,
      dimension: record.dimension,
      gold: record.gold,
      uncuedMajority: asserted === 'fail' ? 'pass' : 'fail',
      cuedVerdict: asserted,
      kind: measured.kind,
      twins: twins ?? [],
      twinRepId: twin.repId,
      simulated: measured.simulated,
    });
  }
  return flips;
}
