/**
 * `cuelab compare` through the built binary on imported studies in a real workspace: the
 * hand-worked example of test/unit/analysis-study-compare.test.ts (paired on shared items, and
 * unpaired against a study of other items), SIMULATED in every format when either study is
 * synthetic, and plain-words errors.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newcombePaired } from '../../src/main/engine/analysis/proportion-difference';
import { Z_TOST_05 } from '../../src/main/engine/analysis/equivalence';
import { parseCsv } from '../../src/main/engine/reports/csv';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');
const HEADER =
  'item_id,dataset,judge,condition,cue_direction,rep,verdict,score,gold,dimension,turns,simulated';

/** Items 1..4 uncued right, the rest uncued wrong; `flipped` items' cued majority turns. */
function records(
  judge: string,
  dataset: string,
  items: number,
  flipped: readonly number[],
  simulated = false,
) {
  const lines: string[] = [];
  for (let index = 1; index <= items; index += 1) {
    const uncued = index <= 4 ? 'pass' : 'fail';
    const other = uncued === 'pass' ? 'fail' : 'pass';
    const direction = uncued === 'pass' ? 'severity' : 'leniency';
    const cued = flipped.includes(index) ? other : uncued;
    for (const rep of [1, 2, 3]) {
      const common = [dataset, judge];
      lines.push([`item-${index}`, ...common, 'uncued', '', rep, uncued, '', 'pass'].join(','));
      lines.push(
        [`item-${index}`, ...common, 'authority', direction, rep, cued, '', 'pass'].join(','),
      );
    }
  }
  return lines.map((line) => `${line},task_success,,${simulated}`);
}

/** `items` items the uncued judge gets right; the cued majority flips on `flipped`. */
function gatedRecords(items: number, flipped: (index: number) => boolean) {
  const lines: string[] = [];
  for (let index = 1; index <= items; index += 1)
    for (const rep of [1, 2, 3]) {
      lines.push(`item-${index},set,judge-a,uncued,,${rep},pass,,pass,task_success,,false`);
      const cued = flipped(index) ? 'fail' : 'pass';
      lines.push(
        `item-${index},set,judge-a,authority,severity,${rep},${cued},,pass,task_success,,false`,
      );
    }
  return lines;
}

interface CompareJson {
  equivalenceMarginPp?: number;
  simulated: boolean;
  rates: { rows: Record<string, unknown>[]; notes: string[] };
  changedItems: { rows: Record<string, unknown>[] };
}

describe('cuelab compare', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const cuelab = (...args: string[]) => {
    const result = spawnSync(process.execPath, [bin, ...args], {
      env: { ...process.env, CUELAB_WORKSPACE: dir.path },
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const importStudy = (name: string, lines: string[]) => {
    const file = join(dir.path, `${name}.csv`);
    writeFileSync(file, [HEADER, ...lines].join('\n'));
    const result = cuelab('import-results', file, '--name', name);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  };

  beforeAll(() => {
    if (!existsSync(built))
      throw new Error(`${built} is missing: run "npm run build" before the engine tests.`);
    dir = makeTempDir();
    importStudy('first', records('judge-a', 'set', 6, [1, 2, 5]));
    importStudy('rerun', records('judge-a', 'set', 6, [1, 5, 6]));
    importStudy('other', records('judge-c', 'other', 3, [1, 2, 3], true));
    // 80 shared items: 8 flip in both, 2 only in A, 2 only in B (the same rate, B − A = 0).
    importStudy(
      'wide-a',
      gatedRecords(80, (index) => index <= 10),
    );
    importStudy(
      'wide-b',
      gatedRecords(80, (index) => index <= 8 || index === 11 || index === 12),
    );
  });
  afterAll(() => dir.remove());

  it('pairs shared items: harmful 50% -> 25%, helpful 50% -> 100%, two changed items', () => {
    const result = cuelab('compare', 'first', 'rerun', '--format', 'json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as CompareJson;
    expect(json.simulated).toBe(false);
    const [harmful, helpful] = json.rates.rows;
    expect(harmful).toMatchObject({
      flip: 'harmful',
      design: 'paired',
      itemsA: 4,
      rateA: 50,
      rateB: 25,
      difference: -25,
      test: 'exact McNemar',
      pValue: 1,
    });
    expect(helpful).toMatchObject({ flip: 'helpful', design: 'paired', difference: 50 });
    expect(json.changedItems.rows.map((row) => [row.itemId, row.outcomeA, row.outcomeB])).toEqual([
      ['item-2', 'harmful flip', 'held'],
      ['item-6', 'stayed wrong', 'helpful flip'],
    ]);
  });

  it('compares other items unpaired (Fisher 9/21) and marks SIMULATED in md, csv and json', () => {
    const json = JSON.parse(
      cuelab('compare', 'first', 'other', '--format', 'json').stdout,
    ) as CompareJson;
    expect(json.simulated).toBe(true);
    const harmful = json.rates.rows[0];
    expect(harmful).toMatchObject({ judgeA: 'judge-a', judgeB: 'judge-c', design: 'unpaired' });
    expect(harmful?.test).toBe('Fisher exact');
    expect(harmful?.pValue as number).toBeCloseTo(9 / 21, 10);
    const md = cuelab('compare', 'first', 'other').stdout;
    expect(md.split('\n')[0]).toContain('SIMULATED');
    expect(md).toContain('unpaired');
    const csv = parseCsv(cuelab('compare', 'first', 'other', '--format', 'csv').stdout);
    const header = csv.records[0]?.fields ?? [];
    expect(header).toContain('differenceCiLow');
    expect(header.at(-1)).toBe('simulated');
    expect(csv.records.slice(1).every((record) => record.fields.at(-1) === 'true')).toBe(true);
    expect(cuelab('compare', 'first', 'rerun').stdout).not.toContain('SIMULATED');
  });

  it('--equivalence-margin adds TOST on the 90% Newcombe interval, paired and unpaired', () => {
    const result = cuelab(
      'compare',
      'wide-a',
      'wide-b',
      '--format',
      'json',
      '--equivalence-margin',
      '10',
    );
    expect(result.stderr).toBe('');
    const json = JSON.parse(result.stdout) as CompareJson;
    expect(json.equivalenceMarginPp).toBe(10);
    const harmful = json.rates.rows[0] as Record<string, number | string | null>;
    expect(harmful).toMatchObject({ design: 'paired', difference: 0, equivalent: 'yes' });
    const interval = newcombePaired({ both: 8, onlyA: 2, onlyB: 2, neither: 68 }, Z_TOST_05);
    expect(harmful.tostCiLow as number).toBeCloseTo((interval?.low ?? 0) * 100, 10);
    expect(harmful.tostCiHigh as number).toBeCloseTo((interval?.high ?? 0) * 100, 10);
    // The same rows at a 2 pp margin: the 90% interval reaches past it, so not shown.
    const narrow = JSON.parse(
      cuelab('compare', 'wide-a', 'wide-b', '--format', 'json', '--equivalence-margin', '2').stdout,
    ) as CompareJson;
    expect(narrow.rates.rows[0]?.equivalent).toBe('not shown');
    // Unpaired (different items): its own interval, and the md text names the test.
    const unpaired = JSON.parse(
      cuelab('compare', 'first', 'other', '--format', 'json', '--equivalence-margin', '10').stdout,
    ) as CompareJson;
    expect(unpaired.rates.rows[0]).toMatchObject({ design: 'unpaired', equivalent: 'not shown' });
    expect(unpaired.rates.rows[0]?.tostCiLow).toEqual(expect.any(Number));
    const md = cuelab('compare', 'wide-a', 'wide-b', '--equivalence-margin', '10').stdout;
    expect(md).toContain('TOST');
    expect(md).toContain('equivalent');
    expect(md).toMatch(/±10 pp/);
    // Without the flag the table is as before.
    const plain = JSON.parse(
      cuelab('compare', 'wide-a', 'wide-b', '--format', 'json').stdout,
    ) as CompareJson;
    expect(plain.rates.rows[0]).not.toHaveProperty('equivalent');
    const bad = cuelab('compare', 'wide-a', 'wide-b', '--equivalence-margin', '0.5x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--equivalence-margin takes percentage points');
  });

  it('prints the changed items as csv with --items', () => {
    const csv = parseCsv(cuelab('compare', 'first', 'rerun', '--format', 'csv', '--items').stdout);
    expect(csv.records.map((record) => record.fields[5])).toEqual(['itemId', 'item-2', 'item-6']);
  });

  it('says what is wrong: one study, an unknown study, --items without csv', () => {
    const one = cuelab('compare', 'first');
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('give two studies');
    const unknown = cuelab('compare', 'first', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nope');
    expect(cuelab('compare', 'first', 'rerun', '--items').stderr).toContain('--items');
  });
});
