/**
 * What a synthetic study's tables must say about its mitigations: the synthetic judge models
 * the paper's four from Table 1 (§3.4), commit-first only as CueLab's hypothesis, and a
 * user-defined mitigation not at all (its arm repeats the unmitigated arm). Read from the rows'
 * mitigation ids (`guard+my-note`): a custom id can never be a built-in's (judge/mitigations).
 */
import { builtinMitigationIdSchema } from '../../../shared/cue-spec';
import type { JudgeRepRow } from './types';

const builtin = new Set<string>(builtinMitigationIdSchema.options);

/** CueLab's own mitigation: simulated only as a hypothesis. */
export const HYPOTHESIS_MITIGATION = 'commit-first';

/** The mitigation ids on simulated rows, split by how the simulation treats them. */
export function simulatedMitigationIds(rows: readonly JudgeRepRow[]) {
  const ids = new Set<string>();
  for (const row of rows) {
    if (!row.simulated || !row.mitigation) continue;
    for (const id of row.mitigation.split('+')) ids.add(id);
  }
  const all = [...ids].sort();
  return {
    paper: all.filter((id) => builtin.has(id) && id !== HYPOTHESIS_MITIGATION),
    hypothesis: all.filter((id) => id === HYPOTHESIS_MITIGATION),
    notModelled: all.filter((id) => !builtin.has(id)),
  };
}

/** The notes a table with simulated mitigated reps carries (none without them). */
export function simulatedMitigationNotes(rows: readonly JudgeRepRow[]): string[] {
  const { paper, hypothesis, notModelled } = simulatedMitigationIds(rows);
  const notes: string[] = [];
  if (paper.length) {
    notes.push(
      `SIMULATED mitigation effects (${paper.join(', ')}): Table 1's before → after odds ratios ` +
        '(§3.4, Sonnet-4.6), applied to each persona’s own rates; not a measurement',
    );
  }
  if (hypothesis.length) {
    notes.push(
      `${hypothesis.join(', ')}: CueLab's own mitigation, not the paper's; its simulated effect ` +
        'is a hypothesis (no measurement behind it)',
    );
  }
  for (const id of notModelled) {
    notes.push(
      `${id}: effect not modelled (a user-defined mitigation; the synthetic judge answers its ` +
        'arm as it answers the arm without it)',
    );
  }
  return notes;
}

/**
 * A mitigation row's simulated-effect cell, for formats without notes (CSV): what stands behind
 * a synthetic study's number for this mitigation set; null for a real study's row.
 */
export function simulatedEffectCell(mitigation: string, simulated: boolean): string | null {
  if (!simulated) return null;
  const ids = mitigation.split('+');
  if (ids.some((id) => !builtin.has(id))) return 'effect not modelled';
  if (ids.includes(HYPOTHESIS_MITIGATION)) return 'SIMULATED: CueLab hypothesis';
  return 'SIMULATED: Table 1 odds ratios';
}
