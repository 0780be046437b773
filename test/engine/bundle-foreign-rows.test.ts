/**
 * A bundle is a stranger's file: rows inside it may name any study or rep. Opening one never
 * adds to or changes another study of the workspace. Real SQLite workspaces, a real synthetic
 * study in each, a bundle rewritten by the test the way an attacker would.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { reportTable } from '../../src/main/engine/reports/tables';
import { makeTempDir } from '../helpers/temp-dir';
import { KEY, runStudy } from '../helpers/bundle-study';
import { engineStore } from '../../src/main/engine/engine-store';

type Tables = Record<string, Record<string, unknown>[]>;

describe('bundle rows that name another study', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let honest: string;
  let victim: string;

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    honest = join(dirs.files.path, 'honest.json.gz');
    exportBundle(engineStore(a), await runStudy(engineStore(a)), honest);
    victim = await runStudy(engineStore(b));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  /** The honest bundle, its study renamed `studyId`, rewritten by `edit`, written to `file`. */
  function rewritten(file: string, studyId: string, edit: (tables: Tables) => void): string {
    const bundle = JSON.parse(gunzipSync(readFileSync(honest)).toString('utf8')) as {
      studyId: string;
      tables: Tables;
    };
    bundle.studyId = studyId;
    bundle.tables.studies![0]!.id = studyId;
    edit(bundle.tables);
    const path = join(dirs.files.path, file);
    writeFileSync(path, gzipSync(JSON.stringify(bundle)));
    return path;
  }

  /** Everything of the victim study a report or a person sees. */
  function victimState() {
    const count = (table: string, where = 'study_id = ?') =>
      engineStore(b).db.prepare(`SELECT count(*) FROM ${table} WHERE ${where}`).pluck().get(victim);
    const reps = `rep_id IN (SELECT id FROM judge_reps WHERE study_id = ?)`;
    return {
      flips: reportTable(engineStore(b), victim, 'flips').rows,
      reps: count('judge_reps'),
      jobs: count('jobs'),
      majorities: count('study_majorities'),
      items: count('study_items'),
      conditions: count('study_conditions'),
      labels: count('mechanism_labels', reps),
      messages: count('judge_messages', reps),
    };
  }

  it.each([
    ['its reps', ['reps']],
    ['every table', ['studyItems', 'studyConditions', 'studyMajorities', 'reps', 'jobs']],
  ])(
    're-keys %s claiming the victim study to the bundle study; the victim stays as it was',
    async (_what, keys) => {
      // Each case in a workspace of its own: one bundle's reps cannot open twice in one.
      b.close();
      dirs.b.remove();
      dirs.b = makeTempDir();
      b = createEngine({ path: dirs.b.path, source: 'flag' });
      victim = await runStudy(engineStore(b));
      const before = victimState();
      expect(before.flips.length).toBeGreaterThan(0);
      const studyId = `attacker-${keys.length}`;
      const attack = rewritten(`claims-victim-${keys.length}.json.gz`, studyId, (tables) => {
        for (const key of keys) for (const row of tables[key]!) row.study_id = victim;
      });
      const summary = openBundle(engineStore(b), attack);
      expect(summary).toMatchObject({ studyId, reps: 6, replaced: false });
      expect(victimState()).toEqual(before);
      // The bundle's rows opened as a study of their own, with the flips they carry.
      const own = engineStore(b)
        .db.prepare('SELECT count(*) FROM judge_reps WHERE study_id = ?')
        .pluck()
        .get(studyId);
      expect(own).toBe(6);
      expect(reportTable(engineStore(b), studyId, 'flips').rows).toEqual(before.flips);
    },
  );

  it('refuses a row that attaches to a rep of another study, storing nothing', () => {
    const [victimRep] = engineStore(b)
      .db.prepare('SELECT id FROM judge_reps WHERE study_id = ? ORDER BY id')
      .pluck()
      .all(victim) as string[];
    const before = victimState();
    const studies = () => engineStore(b).db.prepare('SELECT count(*) FROM studies').pluck().get();
    const studiesBefore = studies();
    const attack = rewritten('claims-rep.json.gz', 'rep-attacker', (tables) => {
      const message = tables.messages![0]!;
      tables.messages!.push({ ...message, rep_id: victimRep!, seq: 9999 });
    });
    expect(() => openBundle(engineStore(b), attack)).toThrow(
      new RegExp(`messages row \\d+ names rep "${victimRep}", which it does not carry`),
    );
    expect(victimState()).toEqual(before);
    expect(studies()).toBe(studiesBefore);
  });
});
