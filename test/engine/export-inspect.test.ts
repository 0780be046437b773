/**
 * `cuelab export-inspect`: a real study (synthetic judge, SQLite workspace) written as Inspect
 * logs; CueLab's own Inspect reader reads them back with one sample per rep, the judge's
 * transcript as messages, and the verdict and gold-agreement scores.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { importRuns } from '../../src/main/engine/suites/import';
import { runStudy } from '../helpers/bundle-study';
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

  it('reads back through the Inspect importer with the judge transcript', () => {
    const back = importRuns({ path: out, format: 'inspect' });
    const reps = store.db.prepare('SELECT id FROM judge_reps WHERE study_id = ?').all(studyId) as {
      id: string;
    }[];
    expect(back.suite.items).toHaveLength(reps.length);
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
});
