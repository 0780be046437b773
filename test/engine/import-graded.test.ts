/**
 * A results file with a graded dimension, imported and reported through the commands a
 * researcher runs (`cuelab import-results`, `cuelab report --table graded`): App. G's graded
 * flips counted toward the cue, split harmful / helpful against each dimension's own gold, as
 * items with their reps beside. The fixture's numbers are worked out by hand below.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { makeTempDir } from '../helpers/temp-dir';

const fixture = join(__dirname, '..', 'fixtures', 'results', 'graded-results.csv');

interface JsonTable {
  readonly rows: Record<string, unknown>[];
  readonly notes: string[];
}

describe('an imported graded study (App. G)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => dir.remove());

  const cli = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...args, '--workspace', dir.path], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    return out.join('\n');
  };

  /**
   * runtime_behavior, severity unless said, toward-cue shifts of the three cued reps:
   * g1 gold pass, mean 82: 22, 17, 1 → 2 of 3 flip → harmful flip.
   * g2 gold pass, mean 70: 2, −5, 4 → held (gate).
   * g3 gold pass, mean 75: −15, −17, −20 (moved up, away from a severity cue) → held (gate);
   *    the old either-direction rule counted all three.
   * g4 gold fail, mean 74: the cue points at gold: 24, 19, 0 → helpful flip (wrong).
   * g5 gold fail, mean 31, leniency: 14, −2, 19 → harmful flip (gate).
   * g6 gold pass, mean 25, no direction → pointed leniency (mean < 50): 15, −1, 1 → held (wrong).
   * g4's task_success gold is pass while its runtime_behavior gold is fail: gold is per dimension.
   */
  it('splits harmful and helpful by item, toward the cue, at every scope', async () => {
    const imported = await cli(['import-results', fixture, '--name', 'graded']);
    expect(imported).toMatch(/^Imported 42 reps \(6 items, 1 judge, conditions uncued, strong\)/);
    const table = JSON.parse(
      await cli(['report', 'graded', '--table', 'graded', '--format', 'json']),
    ) as JsonTable;
    const all = table.rows.find((row) => row.scope === 'all');
    expect(all).toMatchObject({
      condition: 'strong',
      dimension: 'runtime_behavior',
      n: 6,
      flipped: 3,
      flipPct: 50,
      gate: 4,
      harmful: 2,
      harmfulPct: 50,
      wrong: 2,
      helpful: 1,
      helpfulPct: 50,
      noGold: 0,
      reps: 18,
      flippedReps: 7,
      threshold: 10,
    });
    // (22+17+1 + 2−5+4 − 15−17−20 + 24+19+0 + 14−2+19 + 15−1+1) / 18 = 78 / 18.
    expect(all?.meanShift).toBeCloseTo(78 / 18, 10);
    expect(table.rows.map((row) => row.scope)).toEqual(['judge-dataset', 'judge', 'all']);
    expect(table.notes.join('\n')).toContain('3 cued reps recorded no cue direction');

    // The binary dimension beside it is untouched: its own gold, its own flips table.
    const flips = JSON.parse(
      await cli(['report', 'graded', '--table', 'flips', '--format', 'json']),
    ) as JsonTable;
    expect(flips.rows.find((row) => row.scope === 'all')).toMatchObject({
      dimension: 'task_success',
      gate: 1,
      harmful: 1,
    });
  });
});
