/**
 * The soft tool-call budget of App. R: it counts tool-result blocks (not turns, since judges
 * batch parallel calls), appends the harness stop directive to the result that reaches it,
 * and lets the loop go on. A hard safety cap ends the rep as `budget_exhausted`.
 */

/** Budget settings for one rep. */
export interface ToolBudget {
  /** Soft budget; null = unbounded (App. R: the paper's Filesystem/Postgres/SWE runs). */
  soft: number | null;
  /** Tool results after which the rep ends without a verdict. */
  hardCap: number;
}

/** App. R: "a soft tool-call budget of 40 calls". */
export const defaultSoftBudget = 40;

/** Safety cap for an unbounded judge, so a looping model cannot run forever. */
export const unboundedHardCap = 400;

/** A budget from a soft limit: hard cap 3× the soft budget unless given. */
export function toolBudget(soft: number | null = defaultSoftBudget, hardCap?: number): ToolBudget {
  if (soft !== null && (!Number.isInteger(soft) || soft < 1)) {
    throw new Error(
      `The tool budget must be a whole number of at least 1, or unbounded; got ${soft}.`,
    );
  }
  return { soft, hardCap: hardCap ?? (soft === null ? unboundedHardCap : soft * 3) };
}
