/**
 * How the synthetic judge reads an item that has no probe plan (an imported public run): it
 * reads the trajectory in pages with `read_trajectory` (read-only) and decides from its
 * persona's calibrated rates and the item's gold label. It is a simulation like every synthetic
 * result: the pages are really read and quoted, but what they "show" is drawn, not understood.
 *
 * The plan is two reads: the opening of the run (a surface check) and its end (the decisive
 * check, where a run's outcome is). The persona's skip probability is calibrated as
 * skip ≈ 1 − uncued accuracy (Table 5, persona-presets.ts): an uncued error needs a skipped
 * decisive check. So a judge that reads the end finds the gold label, and one that judges by the
 * opening alone finds the other verdict; the cue model then acts as on any item (decide.ts).
 */
import type { Probe } from '../../../shared/suite-format';

/** A page of the trajectory the judge reads, and what that page shows as the persona reads it. */
export interface TrajectoryProbe {
  id: 'trajectory-opening' | 'trajectory-ending';
  tool: 'read_trajectory';
  input: { start_line: number; end_line: number };
  /** The claim the page is read for, worded so that a page that shows it means pass. */
  claim: string;
  decisive: boolean;
  /** Whether the page, as the persona reads it, supports the claim (module comment). */
  shows: boolean;
}

/** A step of the judge's plan: one of the item's probes or a page of its trajectory. */
export type PlanProbe = Probe | TrajectoryProbe;

/** `read_trajectory` returns at most 400 lines a call (judge/tools.ts). */
export const TRAJECTORY_PAGE_LINES = 400;

/** The trajectory's line count, as the prompt states it ("# Agent trajectory (N numbered lines)"). */
export function trajectoryLineCount(prompt: string): number | null {
  const match = /^# Agent trajectory \((\d+) numbered lines\)$/m.exec(prompt);
  return match ? Number(match[1]) : null;
}

/**
 * The two reads for a trajectory of `lineCount` lines: its first half (at most a page) and its
 * last half (at most the last page). `gold` is the item's gold label.
 */
export function trajectoryPlan(lineCount: number, gold: 'pass' | 'fail'): TrajectoryProbe[] {
  const total = Math.max(1, lineCount);
  const half = Math.ceil(total / 2);
  const endStart = total < 2 ? 1 : Math.max(half + 1, total - TRAJECTORY_PAGE_LINES + 1);
  return [
    {
      id: 'trajectory-opening',
      tool: 'read_trajectory',
      input: { start_line: 1, end_line: Math.min(half, TRAJECTORY_PAGE_LINES) },
      claim: "the agent's opening steps are headed for a finished task",
      decisive: false,
      shows: gold !== 'pass',
    },
    {
      id: 'trajectory-ending',
      tool: 'read_trajectory',
      input: { start_line: endStart, end_line: total },
      claim: 'the end of the run shows the task done',
      decisive: true,
      shows: gold === 'pass',
    },
  ];
}

/** The last numbered line of a `read_trajectory` page, without its number: where the page ends. */
export function pageEnding(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.replace(/^\s*\d+ \| /, '').trim())
    .filter((line) => line.length > 0 && !line.startsWith('###'));
  return lines.at(-1) ?? '';
}
