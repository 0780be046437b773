import { describe, expect, it } from 'vitest';
import {
  budgetFamily,
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

  it('reads the scope from the dataset family: built-in deep search and imports of either family', () => {
    // The built-in deep-search items (cuelab-mini's web items) and any web item.
    expect(budgetForDataset({ dataset: 'mini-search', substrate: 'web' }, undefined).soft).toBe(40);
    expect(budgetFamily({ dataset: 'my-browse-tasks', substrate: 'web' })).toBe('deep-search');
    expect(budgetFamily('inspect-deep-search')).toBe('deep-search');
    // Harbor imports and other Terminal-Bench 2.x ids.
    for (const dataset of ['terminal-bench-2', 'terminal-bench-2.1', 'terminal-bench@2.0']) {
      expect(budgetFamily({ dataset, substrate: 'terminal' }), dataset).toBe('terminal-bench-2');
    }
    // Terminal-Bench 1 runs (tb run), SWE-bench and the other built-in substrates stay unbounded.
    for (const scope of [
      { dataset: 'terminal-bench', substrate: 'terminal' },
      { dataset: 'terminal-bench-core@0.1.1', substrate: 'terminal' },
      { dataset: 'swe-bench-verified', substrate: 'code' },
      { dataset: 'mini-filesystem', substrate: 'filesystem' },
      { dataset: 'researcher-notes', substrate: 'database' },
    ]) {
      expect(budgetForDataset(scope, undefined).soft, scope.dataset).toBeNull();
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
