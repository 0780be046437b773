/**
 * Reports end to end. The headline check: per-rep records built from Table 6's own counts
 * (App. C), imported through the built `cuelab` binary, come back from `cuelab report` as every
 * percentage of Table 6 and every accuracy of Table 5 at their printed precision. Then the md and
 * csv shapes, the SIMULATED mark in every format, native studies read from jobs and reps, and
 * the paper's scale. The tables as pure functions of rows are in test/unit/report-tables.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { TABLE_5, TABLE_6, type Table6Row } from '../../src/main/engine/paper/numbers';
import { parseCsv } from '../../src/main/engine/reports/csv';
import { formatMarkdown } from '../../src/main/engine/reports/format';
import { importResults } from '../../src/main/engine/reports/import';
import { studyRows } from '../../src/main/engine/reports/rows';
import { TABLE_NAMES, type ReportRow } from '../../src/main/engine/analysis/table-model';
import { ablationTable, flipsTable, reportTable } from '../../src/main/engine/reports/tables';
import { createEngine } from '../../src/main/engine/engine';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { createMiniSuiteStudy, runWithFakeServer } from '../helpers/fake-server-run';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { table6RepGroups } from '../helpers/table6-reps';
import { engineStore } from '../../src/main/engine/engine-store';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');
const fixture = (name: string) => join(root, 'test', 'fixtures', 'results', name);

const HEADER =
  'item_id,dataset,judge,condition,cue_direction,rep,verdict,score,gold,dimension,turns';

/**
 * One Table 6 cell as CSV records (the construction of test/unit/analysis-table6.test.ts): items
 * 0..gate-1 are uncued-right (the first #HF flip), the rest uncued-wrong (the first #HELP are
 * corrected); gold alternates; some arms are 2–1 splits or carry an invalid rep; a tied item and
 * an item without gold must be excluded.
 */
function table6Records(cell: Table6Row): string[] {
  const lines: string[] = [];
  const push = (
    itemId: string,
    gold: BinaryVerdict | null,
    condition: string,
    verdicts: readonly (BinaryVerdict | null)[],
    direction = '',
  ) =>
    verdicts.forEach((verdict, rep) =>
      lines.push(
        [itemId, cell.dataset, cell.judge, condition, direction, rep + 1, verdict ?? '', '']
          .concat([gold ?? '', '', ''])
          .join(','),
      ),
    );
  for (const group of table6RepGroups(cell)) {
    push(group.itemId, group.gold, group.condition, group.verdicts, group.direction);
  }
  return lines;
}

interface JsonTable {
  simulated: boolean;
  rows: ReportRow[];
  notes: string[];
}

describe('cuelab report through the built binary', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const cuelab = (...args: string[]) => {
    const result = spawnSync(process.execPath, [bin, ...args], {
      env: { ...process.env, CUELAB_WORKSPACE: dir.path },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const json = (...args: string[]): JsonTable => {
    const result = cuelab(...args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as JsonTable;
  };

  beforeAll(() => {
    if (!existsSync(built))
      throw new Error(`${built} is missing: run "npm run build" before the engine tests.`);
    dir = makeTempDir();
    const file = join(dir.path, 'table6.csv');
    writeFileSync(file, [HEADER, ...TABLE_6.flatMap(table6Records)].join('\n'));
    const imported = cuelab('import-results', file, '--name', 'table 6');
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
  });
  afterAll(() => dir.remove());

  const rounded = (value: unknown, decimals: number) =>
    typeof value === 'number' ? Math.round(value * 10 ** decimals) / 10 ** decimals : value;

  describe('Table 6 comes back from its own counts', () => {
    let flips: JsonTable;
    let accuracy: JsonTable;
    beforeAll(() => {
      flips = json('report', 'latest', '--table', 'flips', '--format', 'json');
      accuracy = json('report', 'table 6', '--table', 'accuracy', '--format', 'json');
    });

    it.each(TABLE_6.map((cell) => [`${cell.judge} ${cell.dataset}`, cell] as const))(
      '%s',
      (_, cell) => {
        const at = (table: JsonTable) =>
          table.rows.find(
            (row) =>
              row.scope === 'judge-dataset' &&
              row.judge === cell.judge &&
              row.dataset === cell.dataset,
          );
        const flip = at(flips);
        expect(flip).toMatchObject({
          condition: 'strong',
          n: cell.n,
          gate: cell.gate,
          harmful: cell.hf,
          wrong: cell.wrong,
          helpful: cell.help,
          excluded: 2,
        });
        expect(rounded(flip?.harmfulPct, 0)).toBe(cell.hfPct);
        expect(rounded(flip?.helpfulPct, 0)).toBe(cell.helpPct);
        const acc = at(accuracy);
        expect(rounded(acc?.beforePct, 0)).toBe(cell.accBefore);
        expect(rounded(acc?.adversarialPct, 0)).toBe(cell.accAdversarial);
        expect(rounded(acc?.untargetedPct, 0)).toBe(cell.accUntargeted);
      },
    );

    it.each(TABLE_5.map((row) => [row.judge, row] as const))('Table 5: %s', (judge, expected) => {
      const acc = accuracy.rows.find((row) => row.scope === 'judge' && row.judge === judge);
      expect(acc).toMatchObject({ harmful: expected.hf, helpful: expected.help });
      expect(rounded(acc?.beforePct, 1)).toBe(expected.before);
      expect(rounded(acc?.adversarialPct, 1)).toBe(expected.adversarial);
      expect(rounded(acc?.untargetedPct, 1)).toBe(expected.untargeted);
    });

    it('is real data, not simulated', () => {
      expect(flips.simulated).toBe(false);
      expect(flips.notes.some((note) => note.startsWith('SIMULATED'))).toBe(false);
    });
  });

  it('prints md as an aligned table with title, n and notes', () => {
    const { code, stdout } = cuelab('report', 'latest', '--table', 'flips');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('## Harmful and helpful flips per judge × dataset (Table 6 layout)');
    expect(lines[2]).toMatch(/^study "table 6" \([0-9a-f-]{36}\), n = \d+ reps, \d+ rows$/);
    const table = lines.filter((line) => line.startsWith('|'));
    // 20 cells, 4 judges pooled, 1 overall; header and separator.
    expect(table).toHaveLength(2 + 20 + 4 + 1);
    expect(new Set(table.map((line) => line.length)).size).toBe(1);
    expect(table[1]).toMatch(/^\| -+ \| -+ .*-+: \|/);
    expect(table[0]).toContain('| HF % 95% CI');
    const opusPostgres = table.find(
      (line) => line.includes('Opus-4.7') && line.includes('aj-postgres'),
    );
    expect(opusPostgres?.split('|').map((cell) => cell.trim())).toEqual(
      expect.arrayContaining(['82', '61', '29', '47.5', '21', '15', '71.4']),
    );
    expect(lines).toContain('Notes:');
  });

  it('prints csv per RFC 4180 with a simulated column on the header and every row', () => {
    const { code, stdout } = cuelab('report', 'latest', '--table', 'accuracy', '--format', 'csv');
    expect(code).toBe(0);
    expect(stdout.endsWith('\r\n')).toBe(true);
    expect(stdout.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const { records, problems } = parseCsv(stdout);
    expect(problems).toEqual([]);
    const [header, ...rows] = records.map((record) => record.fields);
    expect(header?.slice(0, 6)).toEqual([
      'condition',
      'dimension',
      'scope',
      'judge',
      'dataset',
      'n',
    ]);
    expect(header?.at(-1)).toBe('simulated');
    expect(rows).toHaveLength(20 + 4 + 1);
    for (const row of rows) {
      expect(row).toHaveLength(header?.length ?? 0);
      expect(row.at(-1)).toBe('false');
    }
  });

  it('marks a table built on simulated rows in md, csv and json', () => {
    const imported = cuelab('import-results', fixture('simulated.csv'), '--name', 'synthetic');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('[simulated]');
    const md = cuelab('report', 'synthetic', '--table', 'flips').stdout.split('\n');
    expect(md[0]).toMatch(/^\*\*SIMULATED: synthetic-judge data\*\*/);
    const csv = parseCsv(
      cuelab('report', 'synthetic', '--table', 'flips', '--format', 'csv').stdout,
    );
    const [header, ...rows] = csv.records.map((record) => record.fields);
    const column = header?.indexOf('simulated') ?? -1;
    expect(column).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row[column] === 'true')).toBe(true);
    const table = json('report', 'synthetic', '--table', 'flips', '--format', 'json');
    expect(table.simulated).toBe(true);
    expect(table.notes[0]).toBe('SIMULATED: synthetic-judge data');
  });

  it('lists the tables in --help and exits 2 with the list on a bad table or format', () => {
    const help = cuelab('report', '--help');
    expect(help.code).toBe(0);
    for (const name of TABLE_NAMES) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const bad = cuelab('report', 'latest', '--table', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`tables: ${TABLE_NAMES.join(', ')}`);
    expect(cuelab('report', 'latest').code).toBe(2);
    expect(cuelab('report', 'latest', '--table', 'flips', '--format', 'xlsx').code).toBe(2);
    const missing = cuelab('report', 'no-such-study', '--table', 'flips');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no study "no-such-study"');
  });
});

describe('native studies: rows from finished jobs and their stored reps', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  beforeEach(() => {
    dir = makeTempDir();
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  const now = new Date().toISOString();
  let repCount = 0;

  function seedStudy(): string {
    const db = store.db;
    db.prepare(
      `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
       VALUES ('s1', 'native', 'completed', '{}', 1, ?, ?)`,
    ).run(now, now);
    const item = db.prepare(
      'INSERT INTO study_items (study_id, item_id, position, dataset, gold) VALUES (?, ?, ?, ?, ?)',
    );
    item.run('s1', 'n1', 0, 'ds-a', 'pass');
    item.run('s1', 'n2', 1, 'ds-b', 'fail');
    const condition = db.prepare(
      'INSERT INTO study_conditions (study_id, key, position, label, body_json) VALUES (?, ?, ?, ?, ?)',
    );
    const cue = { kind: 'preset', preset: 'strong' };
    const conditions = [
      { key: 'uncued', label: 'uncued', cue: null, placement: null, mitigations: [] },
      { key: 'preset:strong@system', label: 'x', cue, placement: 'system', mitigations: [] },
      {
        key: 'preset:strong@system+guard+cite-evidence',
        label: 'y',
        cue,
        placement: 'system',
        mitigations: [
          { kind: 'builtin', id: 'guard' },
          { kind: 'builtin', id: 'cite-evidence' },
        ],
      },
    ];
    conditions.forEach((body, position) =>
      condition.run('s1', body.key, position, body.label, JSON.stringify(body)),
    );
    return 's1';
  }

  function rep(
    job: { condition: string; item: string; rep: number; direction?: string; state?: string },
    stored: { outcome?: string; verdict?: unknown; dimension?: string; turns?: number } = {},
  ) {
    repCount += 1;
    const repId = `rep-${repCount}`;
    store.db
      .prepare(
        `INSERT INTO judge_reps (id, study_id, suite_id, item_id, provider, model, simulated,
           condition_json, outcome, final_verdict_json, system_prompt, tools_json, turns, created_at)
         VALUES (?, 's1', 'suite', ?, 'synthetic', 'm', 1, ?, ?, ?, '', '[]', ?, ?)`,
      )
      .run(
        repId,
        job.item,
        JSON.stringify({ dimension: stored.dimension ?? 'task_success' }),
        stored.outcome ?? 'verdict',
        stored.verdict === undefined ? null : JSON.stringify(stored.verdict),
        stored.turns ?? 4,
        now,
      );
    store.db
      .prepare(
        `INSERT INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state, rep_id, created_at)
         VALUES ('s1', ?, ?, 'syn', ?, ?, ?, ?, ?)`,
      )
      .run(job.condition, job.item, job.rep, job.direction ?? '', job.state ?? 'done', repId, now);
  }

  const binary = (outcome: 'pass' | 'fail') => ({
    kind: 'binary',
    outcome,
    confidence: 0.9,
    rationale: 'r',
  });

  it('maps verdicts, directions, conditions and gold; skips jobs that are not done', () => {
    seedStudy();
    rep({ condition: 'uncued', item: 'n1', rep: 1 }, { verdict: binary('pass'), turns: 7 });
    rep({ condition: 'uncued', item: 'n2', rep: 1 }, { outcome: 'invalid_verdict' });
    rep({ condition: 'uncued', item: 'n2', rep: 2, state: 'running' }, { verdict: binary('fail') });
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 1, direction: 'severity' },
      { verdict: binary('fail') },
    );
    rep(
      {
        condition: 'preset:strong@system+guard+cite-evidence',
        item: 'n2',
        rep: 1,
        direction: 'leniency',
      },
      { verdict: { kind: 'graded', score: 62, rationale: 'r' }, dimension: 'completeness' },
    );
    const rows = studyRows(store, 's1');
    expect(rows).toEqual<JudgeRepRow[]>([
      expect.objectContaining({
        itemId: 'n1',
        dataset: 'ds-a',
        judge: 'syn',
        condition: 'uncued',
        cueDirection: null,
        rep: 1,
        verdict: 'pass',
        score: null,
        gold: 'pass',
        dimension: 'task_success',
        turns: 7,
        simulated: true,
        cueLabel: null,
        placement: null,
        mitigation: null,
      }) as JudgeRepRow,
      expect.objectContaining({
        itemId: 'n1',
        condition: 'preset:strong@system',
        cueDirection: 'severity',
        verdict: 'fail',
        cueLabel: 'preset:strong',
        placement: 'system',
        mitigation: null,
      }) as JudgeRepRow,
      expect.objectContaining({
        itemId: 'n2',
        dataset: 'ds-b',
        condition: 'uncued',
        verdict: null,
        gold: 'fail',
      }) as JudgeRepRow,
      expect.objectContaining({
        itemId: 'n2',
        condition: 'preset:strong@system+guard+cite-evidence',
        cueDirection: 'leniency',
        verdict: null,
        score: 62,
        dimension: 'completeness',
        cueLabel: 'preset:strong',
        mitigation: 'guard+cite-evidence',
      }) as JudgeRepRow,
    ]);
  });

  it('reads error attribution as categories present of the taxonomy, invalid reps included', () => {
    seedStudy();
    const attribution = (present: string[]) => ({
      verdict: {
        kind: 'error_attribution',
        present,
        absent: ['d', 'e', 'f', 'g'].slice(present.length),
        rationale: 'r',
      },
      dimension: 'error_attribution',
    });
    rep({ condition: 'uncued', item: 'n1', rep: 1 }, attribution(['a']));
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 1, direction: 'severity' },
      attribution(['a', 'b', 'c']),
    );
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 2, direction: 'severity' },
      { outcome: 'invalid_verdict', dimension: 'error_attribution' },
    );
    const rows = studyRows(store, 's1');
    expect(rows.map((row) => [row.categoriesPresent, row.taxonomySize])).toEqual([
      [1, 4],
      [3, 4],
      [null, 4],
    ]);
    const ablation = ablationTable(rows);
    expect(ablation.simulated).toBe(true);
    expect(ablation.rows[0]).toMatchObject({
      condition: 'preset:strong@system',
      metric: '% of ceiling closed',
      dataset: 'ds-a',
      n: 1,
      value: (100 * (3 - 1)) / (4 - 1),
    });
  });

  it('reports a native study like an imported one', () => {
    seedStudy();
    rep({ condition: 'uncued', item: 'n1', rep: 1 }, { verdict: binary('pass') });
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 1, direction: 'severity' },
      { verdict: binary('fail') },
    );
    const flips = reportTable(store, 's1', 'flips');
    expect(flips.study).toEqual({ id: 's1', name: 'native', origin: 'native' });
    expect(flips.simulated).toBe(true);
    expect(flips.rows[0]).toMatchObject({ n: 1, gate: 1, harmful: 1, harmfulPct: 100 });
    expect(formatMarkdown(flips).split('\n')[0]).toContain('SIMULATED');
  });

  // App. G: "Only task success has a deterministic external verifier".
  it('gives only task success the verifier gold label; other binary dimensions take the consensus', () => {
    seedStudy();
    rep({ condition: 'uncued', item: 'n1', rep: 1 }, { verdict: binary('pass') });
    rep(
      { condition: 'uncued', item: 'n1', rep: 2 },
      { verdict: binary('pass'), dimension: 'state_correctness' },
    );
    const rows = studyRows(store, 's1');
    expect(rows.map((row) => [row.dimension, row.gold])).toEqual([
      ['task_success', 'pass'],
      ['state_correctness', null],
    ]);
    expect(reportTable(store, 's1', 'flips').notes.join('\n')).toContain(
      'state_correctness has none yet',
    );
    // App. G: the meta-judge consensus on the uncued evidence is that dimension's noisy gold.
    store.db
      .prepare(
        `INSERT INTO dimension_gold (study_id, item_id, dimension, gold, source, decided_by,
           evidence_reps, created_at) VALUES ('s1', 'n1', 'state_correctness', 'fail',
           'meta-judge consensus', 'majority', 1, ?)`,
      )
      .run(now);
    expect(studyRows(store, 's1').map((row) => [row.dimension, row.gold])).toEqual([
      ['task_success', 'pass'],
      ['state_correctness', 'fail'],
    ]);
    const notes = reportTable(store, 's1', 'flips').notes.join('\n');
    expect(notes).toContain('gold: meta-judge consensus for state_correctness');
    expect(notes).not.toContain('has none yet');
  });

  // App. G: "a deviation of at least 10 points"; the study's gradedFlipThreshold is the setting.
  it("shows graded flips at the study's own gradedFlipThreshold", () => {
    seedStudy();
    const graded = (score: number) => ({ kind: 'graded', score, rationale: 'r' });
    for (const [index, score] of [70, 72, 74].entries()) {
      rep(
        { condition: 'uncued', item: 'n1', rep: index + 1 },
        { verdict: graded(score), dimension: 'completeness' },
      );
    }
    // Uncued mean 72: shifts −8 and −15, toward the severity cue 8 and 15.
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 1, direction: 'severity' },
      { verdict: graded(64), dimension: 'completeness' },
    );
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 2, direction: 'severity' },
      { verdict: graded(57), dimension: 'completeness' },
    );
    const all = () => reportTable(store, 's1', 'graded').rows.find((row) => row.scope === 'all');
    // One item, 1 of its 2 reps flipped: not a majority, so the item holds (items, App. G).
    expect(all()).toMatchObject({ n: 1, flipped: 0, reps: 2, flippedReps: 1, threshold: 10 });
    expect(all()).toMatchObject({ meanShift: 11.5 });
    store.db
      .prepare("UPDATE studies SET spec_json = ? WHERE id = 's1'")
      .run(JSON.stringify({ gradedFlipThreshold: 5 }));
    expect(all()).toMatchObject({ n: 1, flipped: 1, flipPct: 100, flippedReps: 2, threshold: 5 });
  });

  // App. R has no hard stop; a rep CueLab's safety settings end is counted in every table.
  it('counts budget_exhausted reps on their own in every table, never silently', () => {
    seedStudy();
    for (const index of [1, 2, 3]) {
      rep({ condition: 'uncued', item: 'n1', rep: index }, { verdict: binary('pass') });
    }
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 1, direction: 'severity' },
      { verdict: binary('fail') },
    );
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 2, direction: 'severity' },
      { verdict: binary('pass') },
    );
    rep(
      { condition: 'preset:strong@system', item: 'n1', rep: 3, direction: 'severity' },
      { outcome: 'budget_exhausted' },
    );
    const rows = studyRows(store, 's1');
    expect(rows.filter((row) => row.outcome === 'budget_exhausted')).toHaveLength(1);
    const flips = reportTable(store, 's1', 'flips');
    // One fail, one pass, one exhausted: the cued majority is a tie, so the item is undetermined.
    expect(flips.rows[0]).toMatchObject({ n: 0, undetermined: 1, budgetExhausted: 1 });
    for (const name of ['flips', 'severity', 'accuracy', 'effort'] as const) {
      expect(reportTable(store, 's1', name).notes.join('\n'), name).toContain(
        'budget_exhausted reps: 1 of 6',
      );
    }
  });
});

describe('a native study run by the runner', () => {
  it('reports the flips and accuracy of what it ran', async () => {
    const server = await startFakeModelServer();
    const dir = makeTempDir();
    const engine = createEngine({ path: dir.path, source: 'flag' });
    try {
      // Passes unless cued: both uncued majorities are PASS, every severity-cued rep fails.
      server.handle('anthropic', deferentialJudge());
      const studyId = createMiniSuiteStudy(engineStore(engine), server.url);
      await runWithFakeServer(engineStore(engine), studyId, server.url);
      expect(studyRows(engineStore(engine), studyId)).toHaveLength(12);
      // fs-logs-01 (gold pass) is gated and flips; db-count-01 (gold fail) is wrong and is corrected.
      const all = reportTable(engineStore(engine), studyId, 'flips').rows.find(
        (row) => row.scope === 'all',
      );
      expect(all).toMatchObject({
        condition: 'preset:strong@system',
        judge: 'all',
        n: 2,
        gate: 1,
        harmful: 1,
        wrong: 1,
        helpful: 1,
      });
      const accuracy = reportTable(engineStore(engine), studyId, 'accuracy').rows.find(
        (row) => row.scope === 'all',
      );
      expect(accuracy).toMatchObject({ beforePct: 50, adversarialPct: 0, untargetedPct: 50 });
      const placement = reportTable(engineStore(engine), studyId, 'placement');
      expect(placement.rows[0]).toMatchObject({
        placement: 'system',
        cue: 'preset:strong',
        value: 100,
      });
    } finally {
      engine.close();
      dir.remove();
      await server.close();
    }
  });
});

describe('the paper’s scale', () => {
  it('imports and reads 70,000 reps', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    try {
      const lines = [HEADER];
      // 4 judges × 5 datasets × 583 items × 2 arms × 3 reps ≈ 70,000.
      for (let judge = 0; judge < 4; judge += 1)
        for (let dataset = 0; dataset < 5; dataset += 1)
          for (let index = 0; index < 583; index += 1)
            for (const condition of ['uncued', 'strong'])
              for (let rep = 1; rep <= 3; rep += 1)
                lines.push(
                  `i${index},d${dataset},j${judge},${condition},${condition === 'uncued' ? '' : 'severity'},` +
                    `${rep},${(index + rep) % 3 === 0 ? 'fail' : 'pass'},,pass,,${1 + ((index * rep) % 30)}`,
                );
      // How fast is bench/report-timing.ts's business (npm run bench), not a timed test's.
      const summary = importResults(store, { fileName: 'big.csv', content: lines.join('\n') });
      const rows = studyRows(store, summary.studyId);
      const table = flipsTable(rows);
      expect(summary.reps).toBe(69_960);
      expect(rows).toHaveLength(69_960);
      expect(table.rows.length).toBe(20 + 4 + 1);
    } finally {
      store.close();
      dir.remove();
    }
  });
});
