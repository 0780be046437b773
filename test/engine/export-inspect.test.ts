/**
 * `cuelab export-inspect`: a real study (synthetic judge, SQLite workspace) written as Inspect
 * logs; CueLab's own Inspect reader reads them back with one sample per rep, the judge's
 * transcript as messages, and the verdict and gold-agreement scores. Both the `.json` and the
 * `.eval` logs are held to Inspect's published log schema (test/helpers/inspect-log-schema.ts)
 * and the `.eval` zip to the layout Inspect's recorder writes and its reader reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { runCli } from '../../src/main/cli/main';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { importRuns } from '../../src/main/engine/suites/import';
import { readZip } from '../../src/main/engine/suites/import/zip';
import { runStudy } from '../helpers/bundle-study';
import {
  inspectLogHeaderSchema,
  inspectLogSchema,
  inspectReductionsSchema,
  inspectSampleSchema,
  inspectSampleSummarySchema,
} from '../helpers/inspect-log-schema';
import { makeTempDir } from '../helpers/temp-dir';

describe('cuelab export-inspect', () => {
  const workspace = makeTempDir();
  const out = join(workspace.path, 'inspect-logs');
  let store: Store;
  let studyId = '';
  let lines: string[] = [];

  beforeAll(async () => {
    store = openStore(join(workspace.path, 'cuelab.sqlite'));
    studyId = await runStudy(store);
    store.close();
    lines = [];
    const code = await runCli(['export-inspect', studyId, out, '--workspace', workspace.path], {
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
    });
    expect(code).toBe(0);
    store = openStore(join(workspace.path, 'cuelab.sqlite'));
  });
  afterAll(() => {
    store.close();
    workspace.remove();
  });

  it('writes one log per judge and condition, one sample per rep', () => {
    const reps = (
      store.db.prepare('SELECT count(*) AS n FROM judge_reps WHERE study_id = ?').get(studyId) as {
        n: number;
      }
    ).n;
    const files = readdirSync(out).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(2); // uncued and cued arms
    const logs = files.map(
      (name) =>
        JSON.parse(readFileSync(join(out, name), 'utf8')) as {
          version: number;
          samples: { epoch: number; scores: Record<string, { value: unknown }> }[];
        },
    );
    expect(logs.reduce((total, log) => total + log.samples.length, 0)).toBe(reps);
    for (const log of logs) {
      expect(log.version).toBe(2);
      for (const entry of log.samples) {
        expect(['pass', 'fail']).toContain(entry.scores.verdict?.value);
        expect(['C', 'I']).toContain(entry.scores.matches_gold?.value);
      }
    }
    expect(lines.at(-1)).toMatch(/^Wrote \d+ Inspect log\(s\) to .*inspect view --log-dir/);
  });

  it('reads back through the Inspect importer: each item once, with its gold label', () => {
    const back = importRuns({ path: out, format: 'inspect' });
    const reps = store.db.prepare('SELECT id FROM judge_reps WHERE study_id = ?').all(studyId) as {
      id: string;
    }[];
    // The study judged one item (gold pass) in every rep: it comes back once, gold kept, and
    // every other rep is skipped with the reason.
    expect(back.suite.items.map((item) => [item.id.split('-').pop(), item.gold])).toEqual([
      ['invoices', 'pass'],
    ]);
    expect(back.skipped).toHaveLength(reps.length - 1);
    for (const skipped of back.skipped)
      expect(skipped.reason).toMatch(/another rep of item invoices/);
    const first = back.suite.items[0]!;
    const source = JSON.parse(readFileSync(join(out, first.provenance!.source), 'utf8')) as {
      samples: { metadata: { cuelab_rep: string } }[];
    };
    const repId = source.samples[0]!.metadata.cuelab_rep;
    const stored = (
      store.db.prepare('SELECT count(*) AS n FROM judge_messages WHERE rep_id = ?').get(repId) as {
        n: number;
      }
    ).n;
    expect(first.trajectory).toHaveLength(stored + 1); // + the system prompt
    expect(first.trajectory[0]?.role).toBe('system');
  });

  it("holds every .json log to Inspect's published EvalLog schema", () => {
    for (const name of readdirSync(out).filter((file) => file.endsWith('.json'))) {
      expect(
        problems(inspectLogSchema, JSON.parse(readFileSync(join(out, name), 'utf8'))),
        name,
      ).toEqual([]);
    }
  });

  it('writes .eval zips laid out as Inspect writes and reads them, each part schema-valid', async () => {
    const evalOut = join(workspace.path, 'inspect-eval');
    const code = await runCli(
      ['export-inspect', studyId, evalOut, '--format', 'eval', '--workspace', workspace.path],
      { out: () => undefined, err: () => undefined },
    );
    expect(code).toBe(0);
    const files = readdirSync(evalOut);
    expect(files.length).toBeGreaterThanOrEqual(2);
    let samples = 0;
    for (const name of files) {
      expect(name).toMatch(/\.eval$/);
      const entries = new Map(
        readZip(readFileSync(join(evalOut, name))).map((entry) => [
          entry.name,
          JSON.parse(entry.read().toString('utf8')) as unknown,
        ]),
      );
      const sampleNames = [...entries.keys()].filter((entry) => entry.startsWith('samples/'));
      expect([...entries.keys()].filter((entry) => !entry.startsWith('samples/')).sort()).toEqual([
        '_journal/start.json',
        'header.json',
        'reductions.json',
        'summaries.json',
      ]);
      expect(problems(inspectLogHeaderSchema, entries.get('header.json')), name).toEqual([]);
      expect(entries.get('header.json')).not.toHaveProperty('samples');
      for (const sampleName of sampleNames) {
        const sample = entries.get(sampleName) as { id: string; epoch: number };
        expect(problems(inspectSampleSchema, sample), sampleName).toEqual([]);
        // The reader finds a sample by this name (eval.py `_sample_filename`).
        expect(sampleName).toBe(`samples/${sample.id}_epoch_${sample.epoch}.json`);
      }
      const summaries = entries.get('summaries.json') as unknown[];
      expect(problems(inspectSampleSummarySchema.array(), summaries)).toEqual([]);
      expect(summaries).toHaveLength(sampleNames.length);
      expect(problems(inspectReductionsSchema.array(), entries.get('reductions.json'))).toEqual([]);
      samples += sampleNames.length;
    }
    const reps = store.db.prepare('SELECT id FROM judge_reps WHERE study_id = ?').all(studyId);
    expect(samples).toBe(reps.length);
    // CueLab's own Inspect reader takes them back as from the .json logs: the item once, with gold.
    const back = importRuns({ path: evalOut, format: 'inspect' }).suite.items;
    expect(back.map((item) => item.gold)).toEqual(['pass']);
  });
});

describe('the Inspect schema checker', () => {
  it("agrees with upstream's own logs on every type; they only predate fields Inspect now writes", () => {
    const upstream = join(__dirname, '..', 'fixtures', 'import', 'inspect');
    const log = JSON.parse(
      readFileSync(join(upstream, '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'),
    ) as unknown;
    const found = problems(inspectLogSchema, log);
    expect(found.length).toBeGreaterThan(0);
    for (const problem of found) expect(problem).toMatch(/received undefined$/);
    // Filled with the (empty) values Inspect now writes, the upstream log passes whole.
    const filled = log as Record<string, Record<string, unknown>> & {
      plan: { steps: Record<string, unknown>[] };
    };
    Object.assign(filled, { invalidated: false, tags: [], metadata: {} });
    Object.assign(filled.eval!, { task_args_passed: {} });
    Object.assign(filled.stats!, { role_usage: {}, connection_limit_history: [] });
    for (const step of filled.plan.steps) step.params_passed = {};
    const rest = problems(inspectLogSchema, filled).filter(
      (problem) => !problem.startsWith('samples.'),
    );
    expect(rest).toEqual([]);
  });
});

describe('the Inspect schema checker on an upstream .eval', () => {
  it('finds no wrong type in any part of it, only fields added since it was written', () => {
    const archive = join(__dirname, '..', 'fixtures', 'import', 'inspect', 'log_read_sample.eval');
    const parts: [string, ZodType][] = [];
    for (const entry of readZip(readFileSync(archive))) {
      const value = JSON.parse(entry.read().toString('utf8')) as unknown;
      const schema =
        entry.name === 'header.json'
          ? inspectLogHeaderSchema
          : entry.name.startsWith('samples/')
            ? inspectSampleSchema
            : entry.name === 'summaries.json'
              ? inspectSampleSummarySchema.array()
              : entry.name === 'reductions.json'
                ? inspectReductionsSchema.array()
                : undefined;
      if (!schema) continue;
      parts.push([entry.name, schema]);
      for (const problem of problems(schema, value))
        expect(problem, entry.name).toMatch(/received undefined$/);
    }
    expect(parts.map(([name]) => name).sort()).toEqual([
      'header.json',
      'reductions.json',
      'samples/1_epoch_1.json',
      'summaries.json',
    ]);
  });
});

/** `path: problem` for each place `value` breaks `schema`. */
function problems(schema: ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
