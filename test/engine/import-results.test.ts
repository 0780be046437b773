/**
 * `cuelab import-results` on a real SQLite workspace: CSV and JSONL fixtures import and report
 * the same numbers; a file with bad rows or conflicting gold labels is rejected whole, every
 * problem listed by line, and nothing is stored.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { parseCsv } from '../../src/main/engine/reports/csv';
import {
  importResults,
  importResultsFile,
  ResultsImportError,
} from '../../src/main/engine/reports/import';
import { studyRows } from '../../src/main/engine/reports/rows';
import { reportTable } from '../../src/main/engine/reports/tables';
import { makeTempDir } from '../helpers/temp-dir';

const fixture = (name: string) => join(__dirname, '..', 'fixtures', 'results', name);

const HEADER =
  'item_id,dataset,judge,condition,cue_direction,rep,verdict,score,gold,dimension,turns';

describe('importing results files', () => {
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

  const count = (table: string) =>
    (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  const rejection = (run: () => unknown): ResultsImportError => {
    try {
      run();
    } catch (error) {
      if (error instanceof ResultsImportError) return error;
      throw error;
    }
    throw new Error('expected the import to be rejected');
  };

  it('imports the CSV fixture (BOM, CRLF) as a completed imported study with its extra columns', () => {
    const bytes = readFileSync(fixture('mini-results.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.includes('\r\n')).toBe(true);
    const summary = importResultsFile(store, fixture('mini-results.csv'));
    expect(summary).toMatchObject({
      name: 'mini-results.csv',
      format: 'csv',
      reps: 24,
      items: 4,
      judges: 1,
      conditions: ['uncued', 'strong'],
      simulated: false,
      warnings: [],
    });
    const study = store.db
      .prepare('SELECT name, status, origin, simulated, spec_json FROM studies WHERE id = ?')
      .get(summary.studyId) as Record<string, unknown>;
    expect(study).toMatchObject({ status: 'completed', origin: 'imported', simulated: 0 });
    expect(JSON.parse(study.spec_json as string)).toMatchObject({
      kind: 'imported-results',
      source: { file: 'mini-results.csv', format: 'csv', rows: 24 },
    });
    // The first record's note spans two physical lines, so the next record starts on line 4.
    const lines = store.db
      .prepare('SELECT line, extra_json FROM imported_reps WHERE study_id = ? ORDER BY line')
      .all(summary.studyId) as { line: number; extra_json: string }[];
    expect(lines.slice(0, 3).map((row) => row.line)).toEqual([2, 4, 5]);
    expect(JSON.parse(lines[0]?.extra_json ?? '{}')).toEqual({
      note: 'checked the ledger, then "archive"\nagain',
      run_id: 'run-i1-uncued-1',
    });
  });

  it('reports the hand-computed flips and accuracy of the fixture, the same from CSV and JSONL', () => {
    const fromCsv = importResultsFile(store, fixture('mini-results.csv'));
    const fromJsonl = importResultsFile(store, fixture('mini-results.jsonl'), { name: 'jsonl' });
    expect(fromJsonl).toMatchObject({ format: 'jsonl', name: 'jsonl', reps: 24 });
    for (const studyId of [fromCsv.studyId, fromJsonl.studyId]) {
      const flips = reportTable(store, studyId, 'flips');
      const cell = flips.rows.find((row) => row.scope === 'judge-dataset');
      // i1 flipped (gated), i2 held (gated), i3 corrected (wrong), i4 held (gated).
      expect(cell).toMatchObject({ n: 4, gate: 3, harmful: 1, wrong: 1, helpful: 1 });
      expect(cell?.harmfulPct).toBeCloseTo(100 / 3, 10);
      expect(cell?.helpfulPct).toBe(100);
      const accuracy = reportTable(store, studyId, 'accuracy').rows.find(
        (row) => row.scope === 'judge',
      );
      expect(accuracy).toMatchObject({ beforePct: 75, adversarialPct: 50, untargetedPct: 75 });
    }
    const strip = (rows: ReturnType<typeof studyRows>) => rows.map((row) => ({ ...row }));
    expect(strip(studyRows(store, fromJsonl.studyId))).toEqual(
      strip(studyRows(store, fromCsv.studyId)),
    );
  });

  it('rejects a file with several bad rows whole, listing each by line, and stores nothing', () => {
    const error = rejection(() => importResultsFile(store, fixture('bad-rows.csv')));
    expect(error.problems).toEqual([
      'line 3: verdict: expected pass or fail, got "yes"',
      'line 5: rep: expected a whole number ≥ 0, got "x"',
      'line 6: judge: required',
      'line 7: cue_direction: expected severity or leniency, got "sideways"',
      'line 8: score: expected a number from 1 to 100, got 150',
      'line 9: 9 fields, but the header has 11 columns',
      'line 10: cue_direction: the uncued control arm has no cue direction, got "severity"',
      'line 11: turns: expected a whole number ≥ 0, got -1',
    ]);
    expect(error.message).toContain('8 problems; nothing was stored');
    expect(count('studies')).toBe(0);
    expect(count('imported_reps')).toBe(0);
  });

  it('rejects rows that disagree about an item’s gold label', () => {
    const error = rejection(() => importResultsFile(store, fixture('gold-conflict.csv')));
    expect(error.problems).toEqual(['item i1: gold pass on line 2 but fail on line 5']);
    expect(count('studies')).toBe(0);
    expect(count('imported_reps')).toBe(0);
  });

  it('rejects the same rep twice, a verdict with a score, and a scale mixed within a dimension', () => {
    const content = [
      HEADER,
      'i1,ds,j,uncued,,1,pass,,pass,,',
      'i1,ds,j,uncued,,1,fail,,pass,,',
      'i2,ds,j,uncued,,1,pass,40,,,',
      'i3,ds,j,uncued,,1,,,,task_success,',
      'i4,ds,j,uncued,,1,,55,,custom_dim,',
      'i4,ds,j,uncued,,2,pass,,,custom_dim,',
    ].join('\n');
    const error = rejection(() => importResults(store, { fileName: 'x.csv', content }));
    expect(error.problems).toEqual([
      'line 4: score: give a verdict (binary dimensions) or a score (graded ones), not both',
      'line 3: the same rep as line 2 (item, judge, condition, cue direction, dimension and rep)',
      'dimension custom_dim: a score on line 6 but a pass/fail verdict on line 7',
    ]);
    expect(count('imported_reps')).toBe(0);
  });

  it('rejects files without the required header columns, or without rows', () => {
    const noJudge = rejection(() =>
      importResults(store, { fileName: 'x.csv', content: 'item_id,dataset,condition,rep\n' }),
    );
    expect(noJudge.problems[0]).toMatch(/^line 1: the header has no "judge" column/);
    const empty = rejection(() =>
      importResults(store, { fileName: 'x.csv', content: `${HEADER}\n` }),
    );
    expect(empty.problems).toEqual(['the file has no rows']);
    const json = rejection(() =>
      importResults(store, { fileName: 'x.jsonl', content: '{"item_id": "a"\n[1]\n' }),
    );
    expect(json.problems[0]).toMatch(/^line 1: not valid JSON/);
    expect(json.problems[1]).toBe('line 2: expected a JSON object, got [1]');
    expect(count('studies')).toBe(0);
  });

  it('takes verdicts case-insensitively and reads an empty verdict and score as an invalid rep', () => {
    const content = [HEADER, 'i1,ds,j,uncued,,1,PASS,,Fail,,', 'i1,ds,j,uncued,,2,,,fail,,'].join(
      '\r\n',
    );
    const summary = importResults(store, { fileName: 'x.csv', content });
    const rows = studyRows(store, summary.studyId);
    expect(rows.map((row) => [row.verdict, row.gold, row.dimension])).toEqual([
      ['pass', 'fail', 'task_success'],
      [null, 'fail', 'task_success'],
    ]);
  });

  it('parses RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', () => {
    const parsed = parseCsv('a,"b,c","say ""hi""","two\r\nlines"\r\n\r\nx,,"",z\n"open');
    expect(parsed.records).toEqual([
      { line: 1, fields: ['a', 'b,c', 'say "hi"', 'two\r\nlines'] },
      { line: 4, fields: ['x', '', '', 'z'] },
    ]);
    expect(parsed.problems).toEqual([
      { line: 5, message: 'field 1 opens a quote that is never closed' },
    ]);
    expect(parseCsv('"a"b,c\nd,e').problems).toEqual([
      { line: 1, message: 'field 1 has text after its closing quote' },
    ]);
    expect(parseCsv('d,e\n"a"b,c').records).toEqual([{ line: 1, fields: ['d', 'e'] }]);
  });

  it('through the command: prints the study, rejects bad files with exit 1 and every line', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    const workspace = ['--workspace', dir.path];
    const ok = await runCli(
      ['import-results', fixture('mini-results.jsonl'), '--name', 'mini', ...workspace],
      io,
    );
    expect(ok).toBe(0);
    expect(out[0]).toMatch(/^Imported 24 reps \(4 items, 1 judge, conditions uncued, strong\)/);
    const bad = await runCli(['import-results', fixture('bad-rows.csv'), ...workspace], io);
    expect(bad).toBe(1);
    expect(err[0]).toBe(
      'cuelab import-results: bad-rows.csv was not imported: 8 problems; nothing was stored.',
    );
    expect(err.slice(1)).toHaveLength(8);
    expect(err[1]).toBe('  line 3: verdict: expected pass or fail, got "yes"');
    // The workspace (the same database file) holds only the good study.
    const names = store.db.prepare('SELECT name FROM studies').all() as { name: string }[];
    expect(names.map((row) => row.name)).toEqual(['mini']);
    expect(await runCli(['import-results', ...workspace], io)).toBe(2);
  });
});
