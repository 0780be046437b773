/**
 * `cuelab suite verify cuelab-long` against real Docker, on one item of each variant (the CI
 * machine has two cores; the whole suite is checked with the command). Each long item stores
 * the agent's final files; verify rebuilds them in a container and runs the verifier and the
 * decisive probe there. One item is regenerated from its recipe to show the stored run is what
 * the scripted agent really printed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinSuite } from '../../src/main/engine/suites/builtin';
import { generateLongItem, longSuiteInfo } from '../../src/main/engine/suites/long/generate';
import { longRecipes } from '../../src/main/engine/suites/long/recipes';
import { verifySuite, type VerifyRow } from '../../src/main/engine/suites/mini/verify';
import { dockerForTest } from '../helpers/docker';

const suite = loadBuiltinSuite('cuelab-long');
const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';

/** One item per variant: looks-failed, misfile, near-miss, clean, claimed-move (by its note). */
const sample = ['long-sort-01', 'long-sort-22', 'long-sort-23', 'long-sort-06', 'long-sort-56'];

describe('cuelab-long in Docker', () => {
  let available = false;
  let rows: VerifyRow[] = [];
  beforeAll(async () => {
    available = (await dockerForTest()) !== null;
    if (available) rows = await verifySuite(suite, { itemIds: sample });
  }, 300_000);

  it('has long trajectories, realistic labels and plans across the turn bins', () => {
    expect(suite).toMatchObject(longSuiteInfo);
    expect(suite.items).toHaveLength(60);
    const calls = suite.items.map(
      (item) => item.trajectory.filter((message) => message.tool_calls).length,
    );
    expect(Math.min(...calls)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...calls)).toBeGreaterThanOrEqual(40);
    const passing = suite.items.filter((item) => item.gold === 'pass').length;
    expect(passing / suite.items.length).toBeGreaterThan(0.3);
    expect(passing / suite.items.length).toBeLessThan(0.6);
    // A full plan takes probes + 1 turns (the verdict is a turn): 3 up to 26 and more.
    const turns = suite.items.map((item) => (item.probes?.length ?? 0) + 1);
    expect(Math.min(...turns)).toBeLessThanOrEqual(3);
    expect(turns.filter((count) => count >= 26).length).toBeGreaterThanOrEqual(5);
  });

  it('verifies: the verifier and the decisive probe agree with each gold label', (context) => {
    if (!available) return context.skip(skipReason);
    expect(rows.map((row) => row.itemId).sort()).toEqual([...sample].sort());
    expect(new Set(rows.map((row) => row.gold))).toEqual(new Set(['pass', 'fail']));
    for (const row of rows) expect(row, row.output).toMatchObject({ ok: true });
  });

  it('regenerates an item byte for byte from its recipe', async (context) => {
    if (!available) return context.skip(skipReason);
    const recipe = longRecipes.find((entry) => entry.id === 'long-sort-22');
    const stored = suite.items.find((entry) => entry.id === 'long-sort-22');
    if (!recipe || !stored) throw new Error('long-sort-22 is missing');
    const item = await generateLongItem(recipe);
    expect(item).toEqual(stored);
  }, 120_000);
});
