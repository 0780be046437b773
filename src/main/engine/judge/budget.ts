/**
 * The soft tool-call budget of App. R: it counts tool-result blocks (not turns, since judges
 * batch parallel calls), appends the harness stop directive to the result that reaches it,
 * and lets the loop go on. It applies only to the datasets the paper budgets (App. R: Deep
 * Search and Terminal-Bench 2.0); the judge runs unbounded elsewhere.
 *
 * NOT in the paper (App. R: the budget "does not terminate the loop"): any hard stop. CueLab
 * offers one only as an explicit safety setting, off by default; what keeps a looping model
 * from running forever is the max-turn guard below and the study's cost cap.
 */
import { BUDGETED_DATASETS, SOFT_TOOL_CALL_BUDGET } from '../paper';

/** Budget settings for one rep. */
export interface ToolBudget {
  /** Soft budget; null = unbounded (App. R: the paper's Filesystem/Postgres/SWE runs). */
  soft: number | null;
  /**
   * Safety setting, not in the paper: tool results after which the rep ends as
   * `budget_exhausted`. Null (the default) = no hard stop.
   */
  hardCap: number | null;
  /** Model turns after which the rep ends as `budget_exhausted` (CueLab's guard; App. R is silent). */
  maxTurns: number;
}

/** App. R: "a soft tool-call budget of 40 calls". */
export const defaultSoftBudget = SOFT_TOOL_CALL_BUDGET;

/**
 * CueLab's max-turn guard (the paper states none): App. R's thorough judge uses 10–30 calls and
 * Fig. 3's largest bin is 26+ turns, so 200 turns only ends a judge that is looping.
 */
export const defaultMaxTurns = 200;

/** Optional safety settings of a study or a single rep. */
export interface BudgetSafety {
  /** A hard stop after this many tool results; absent = none (the paper's design). */
  hardStop?: number | undefined;
  /** Max-turn guard; default `defaultMaxTurns`. */
  maxTurns?: number | undefined;
}

/** A budget from a soft limit and the safety settings (no hard stop unless asked for). */
export function toolBudget(
  soft: number | null = defaultSoftBudget,
  safety: BudgetSafety = {},
): ToolBudget {
  if (soft !== null && (!Number.isInteger(soft) || soft < 1)) {
    throw new Error(
      `The tool budget must be a whole number of at least 1, or unbounded; got ${soft}.`,
    );
  }
  for (const [name, value] of Object.entries(safety)) {
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new Error(`The ${name} safety setting must be a whole number of at least 1.`);
    }
  }
  return {
    soft,
    hardCap: safety.hardStop ?? null,
    maxTurns: safety.maxTurns ?? defaultMaxTurns,
  };
}

/** What an item's budget scope is read from: its dataset id and, when known, its substrate. */
export interface DatasetScope {
  dataset: string;
  substrate?: string;
}

/** The dataset families App. R budgets. */
export type BudgetedFamily = 'deep-search' | 'terminal-bench-2';

/**
 * The App. R family an item belongs to, or null. App. R budgets the two substrates where judges
 * were seen to loop, Deep Search ("reverifying unresolvable web claims") and Terminal-Bench 2.0,
 * so the family comes from what the item is, not one exact id: any web item or dataset named for
 * search (the paper's `aj-search`, the built-in `mini-search`, an import's `…-deep-search`), and
 * any Terminal-Bench 2.x dataset (`terminal-bench-2`, `terminal-bench-2.1`, Harbor's imports).
 * Terminal-Bench 1 runs (`terminal-bench`, from `tb run`) are not 2.x and run unbounded.
 */
export function budgetFamily(scope: DatasetScope | string): BudgetedFamily | null {
  const { dataset, substrate } = typeof scope === 'string' ? { dataset: scope } : scope;
  const id = dataset.toLowerCase();
  if ((BUDGETED_DATASETS as readonly string[]).includes(id)) {
    return id === 'aj-search' ? 'deep-search' : 'terminal-bench-2';
  }
  if (substrate === 'web' || /(^|[-_.@/])(deep-?)?search([-_.@/]|$)/.test(id)) {
    return 'deep-search';
  }
  if (/^(terminal-bench|tbench)[-_@]?2(\.\d+)*([-_.@/]|$)/.test(id)) {
    return 'terminal-bench-2';
  }
  return null;
}

/** True when App. R puts this dataset's family under the 40-result soft budget. */
export function isBudgetedDataset(scope: DatasetScope | string): boolean {
  return budgetFamily(scope) !== null;
}

/**
 * The budget of one item: an explicit setting (the study's, else the suite's) wins; without one,
 * App. R's scope: 40 soft on the Deep Search and Terminal-Bench 2.x families, unbounded on every
 * other dataset.
 */
export function budgetForDataset(
  scope: DatasetScope | string,
  setting: number | 'unbounded' | undefined,
  safety: BudgetSafety = {},
): ToolBudget {
  if (setting === 'unbounded') return toolBudget(null, safety);
  if (setting !== undefined) return toolBudget(setting, safety);
  return toolBudget(isBudgetedDataset(scope) ? defaultSoftBudget : null, safety);
}
