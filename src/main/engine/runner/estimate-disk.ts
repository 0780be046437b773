/**
 * The disk a study will take, for the estimate. Two measured parts:
 * - the rows of a rep (its row, job, turns, tool calls and messages pointing at shared texts):
 *   the paper-scale bench workspace's bytes per rep less its stored texts (bench/disk.ts,
 *   docs/SCALE.md "Disk"; 70,560 reps of about 29 tool calls each);
 * - the item's trajectory, which every rep's prompt carries: compressed here as the store would
 *   (store/text-blobs.ts) and counted once per arm (a condition and direction), since the reps
 *   of an arm share one prompt and the store keeps each distinct text once.
 */
import type { SuiteItem } from '../../../shared/suite-format';
import { packText } from '../store';

/** Bytes of rows per rep on the paper-scale bench workspace, texts excluded (measured). */
export const ROW_BYTES_PER_REP = 5870;

/** The estimate's disk figure and how it was made. */
export interface DiskEstimate {
  bytes: number;
  basis: string;
}

/** Disk for `totalReps` reps over `items`, each item judged under `arms` distinct prompts. */
export function estimateDisk(
  items: readonly SuiteItem[],
  totalReps: number,
  arms: number,
): DiskEstimate {
  const trajectoryBytes = items.reduce(
    (sum, item) => sum + packText(JSON.stringify(item.trajectory)).length,
    0,
  );
  const rows = totalReps * ROW_BYTES_PER_REP;
  const texts = trajectoryBytes * arms;
  return {
    bytes: rows + texts,
    basis:
      `${ROW_BYTES_PER_REP.toLocaleString('en-US')} B of rows per rep (measured on the ` +
      `paper-scale bench) + the items' trajectories compressed (${trajectoryBytes.toLocaleString('en-US')} B) ` +
      `once per arm (${arms})`,
  };
}
