import { describe, expect, it } from 'vitest';
import {
  budgetForDataset,
  defaultMaxTurns,
  isBudgetedDataset,
  toolBudget,
} from '../../src/main/engine/judge/budget';

// App. R / Table 11: "a soft tool-call budget of 40 calls" on AJ-Bench Deep Search and
// Terminal-Bench-2.0; "on AJ-Bench Filesystem, AJ-Bench Postgres and SWE-Bench-Verified the judge
// runs unbounded"; the budget "does not terminate the loop".
describe('the tool budget scope (App. R)', () => {
  it('puts only Deep Search and Terminal-Bench 2.0 under the 40-result soft budget', () => {
    expect(budgetForDataset('aj-search', undefined).soft).toBe(40);
    expect(budgetForDataset('terminal-bench-2', undefined).soft).toBe(40);
    for (const dataset of ['aj-filesystem', 'aj-postgres', 'swe-bench-verified', 'mini-code']) {
      expect(budgetForDataset(dataset, undefined).soft, dataset).toBeNull();
      expect(isBudgetedDataset(dataset)).toBe(false);
    }
  });

  it('lets an explicit study or suite setting override the scope', () => {
    expect(budgetForDataset('aj-filesystem', 12).soft).toBe(12);
    expect(budgetForDataset('aj-search', 'unbounded').soft).toBeNull();
  });

  it('has no hard stop by default, only the max-turn guard', () => {
    for (const budget of [
      toolBudget(),
      toolBudget(null),
      budgetForDataset('aj-search', undefined),
    ]) {
      expect(budget.hardCap).toBeNull();
      expect(budget.maxTurns).toBe(defaultMaxTurns);
    }
    expect(toolBudget(40, { hardStop: 120 }).hardCap).toBe(120);
    expect(() => toolBudget(40, { maxTurns: 0 })).toThrow(/maxTurns/);
  });
});
