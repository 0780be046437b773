/**
 * Study bundles and label CSV (part 7): a synthetic study exported from one workspace
 * opens in another, offline, with the same flips, labels and tables; opening is idempotent; no
 * API key enters the file (test/engine/bundle-labels.test.ts covers label CSV and the commands).
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle, readBundle } from '../../src/main/engine/export/bundle-open';
import { importLabelsCsv } from '../../src/main/engine/export/labels-csv';
import { classifyStudy } from '../../src/main/engine/metajudge/classify-study';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import { loadFlipPairView } from '../../src/main/engine/metajudge/pair';
import { reportTable } from '../../src/main/engine/reports/tables';
import { listAnnotators, listStudyLabels, saveLabels } from '../../src/main/engine/store/labels';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { makeTempDir } from '../helpers/temp-dir';

import { KEY, runStudy, suite } from '../helpers/bundle-study';
import { engineStore } from '../../src/main/engine/engine-store';
import { registerTextFunctions } from '../../src/main/engine/store/text-blobs';
const OTHER_KEY = 'sk-openai-bundle-test-0f9e8d';

describe('study bundles', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), c: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let studyId: string;
  const bundleFile = join(dirs.files.path, 'study.json.gz');

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    vi.stubEnv('OPENAI_API_KEY', OTHER_KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    studyId = await runStudy(engineStore(a));
    await classifyStudy(engineStore(a), studyId);
    const [first] = findFlippedReps(engineStore(a), studyId);
    importLabelsCsv(
      engineStore(a),
      `rep_id,annotator,label,sub_mode,rationale\n${first!.repId},ann,over_trust,deference,"defers, plainly"\n`,
    );
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('writes one gzipped file with the whole study and no API key in it', () => {
    // The store redacted the key the trajectory printed when it was written: nothing is left
    // for the export to find, and the marker travels as it is.
    const summary = exportBundle(engineStore(a), studyId, bundleFile);
    expect(summary).toMatchObject({ studyId, reps: 6, redacted: [] });
    const text = gunzipSync(readFileSync(bundleFile)).toString('utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(OTHER_KEY);
    expect(text).not.toContain('apiKey');
    expect(text).toContain('[redacted:ANTHROPIC_API_KEY]');
    const bundle = readBundle(bundleFile);
    const count = (sql: string) => engineStore(a).db.prepare(sql).pluck().get(studyId) as number;
    expect(bundle.tables.reps).toHaveLength(6);
    expect(bundle.tables.messages).toHaveLength(
      count(
        'SELECT count(*) FROM judge_messages WHERE rep_id IN (SELECT id FROM judge_reps WHERE study_id = ?)',
      ),
    );
    expect(bundle.tables.toolCalls.length).toBeGreaterThanOrEqual(12);
    expect(bundle.tables.jobs).toHaveLength(6);
    expect(bundle.tables.studyMajorities).toHaveLength(1);
    expect(bundle.tables.suiteItems).toHaveLength(1);
    expect(bundle.tables.suiteTaxonomies).toHaveLength(1);
    expect(bundle.tables.labels).toHaveLength(
      count(
        'SELECT count(*) FROM mechanism_labels WHERE rep_id IN (SELECT id FROM judge_reps WHERE study_id = ?)',
      ),
    );
    expect(bundle.tables.annotators.map((row) => row.name)).toEqual(['ann']);
    // Every prompt travels: system prompt and tools on the rep, messages beside it.
    expect(
      bundle.tables.reps.every(
        (rep) => typeof rep.system_prompt === 'string' && typeof rep.tools_json === 'string',
      ),
    ).toBe(true);
  });

  it('redacts at export a key an older CueLab stored in clear, with its variable unset', () => {
    // A raw connection, as an older CueLab or a hand edit would write: no write-time redaction.
    const raw = new Database(engineStore(a).path);
    // The views over compacted texts call CueLab's SQL functions (store/text-blobs.ts).
    registerTextFunctions(raw);
    const rep = raw
      .prepare('SELECT id FROM judge_reps WHERE study_id = ? LIMIT 1')
      .pluck()
      .get(studyId) as string;
    raw
      .prepare('UPDATE judge_messages SET content = ? WHERE rep_id = ? AND seq = 0')
      .run(`printed ${KEY} and Bearer ${OTHER_KEY}`, rep);
    raw.close();
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    try {
      const file = join(dirs.files.path, 'legacy.json.gz');
      const summary = exportBundle(engineStore(a), studyId, file);
      // Remembered from when it was set, and OPENAI_API_KEY still set.
      expect([...summary.redacted].sort()).toEqual(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']);
      const text = gunzipSync(readFileSync(file)).toString('utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OTHER_KEY);
      expect(text).toContain('printed [redacted:ANTHROPIC_API_KEY] and Bearer [redacted:OPENAI');
    } finally {
      vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    }
  });
  it('refuses to export a field named like a key', () => {
    const [flip] = findFlippedReps(engineStore(a), studyId);
    saveLabels(engineStore(a), [
      { repId: flip!.repId, source: 'human:leaky', label: 'over_trust', details: { apiKey: 'x' } },
    ]);
    try {
      expect(() =>
        exportBundle(engineStore(a), studyId, join(dirs.files.path, 'leaky.json.gz')),
      ).toThrow(/holds a field named "apiKey"/);
    } finally {
      engineStore(a).db.prepare(`DELETE FROM mechanism_labels WHERE source = 'human:leaky'`).run();
    }
  });

  it('opens in another workspace offline with the same flips, labels, pairs and tables', async () => {
    const summary = openBundle(engineStore(b), bundleFile);
    expect(summary).toMatchObject({
      studyId,
      reps: 6,
      replaced: false,
      suiteCreated: true,
      itemsAdded: 1,
    });
    const flips = (engine: Engine) =>
      findFlippedReps(engineStore(engine), studyId).map(({ repId, kind, twinRepId }) => ({
        repId,
        kind,
        twinRepId,
      }));
    expect(flips(b)).toEqual(flips(a));
    expect(flips(b)).toHaveLength(3);
    const labels = (engine: Engine) =>
      listStudyLabels(engineStore(engine), studyId).map(({ createdAt: _c, ...label }) => label);
    expect(labels(b)).toEqual(labels(a));
    expect(listAnnotators(engineStore(b))).toEqual(['ann']);
    const [flip] = findFlippedReps(engineStore(b), studyId);
    const view = loadFlipPairView(engineStore(b), flip!.repId);
    expect(view.diff.label).toBe(loadFlipPairView(engineStore(a), flip!.repId).diff.label);
    expect(view.cued.calls.length).toBeGreaterThan(0);
    expect(reportTable(engineStore(b), studyId, 'flips').rows).toEqual(
      reportTable(engineStore(a), studyId, 'flips').rows,
    );
    const reclassified = await classifyStudy(engineStore(b), studyId);
    expect(reclassified.flips).toBe(3);
  });

  it('refuses to open the same study twice, and replaces it when asked', () => {
    expect(() => openBundle(engineStore(b), bundleFile)).toThrow(
      /already in this workspace\. Open the bundle with --replace/,
    );
    const before = engineStore(b).db.prepare('SELECT count(*) FROM judge_reps').pluck().get();
    expect(openBundle(engineStore(b), bundleFile, { replace: true })).toMatchObject({
      replaced: true,
      suiteCreated: false,
      itemsAdded: 0,
    });
    expect(engineStore(b).db.prepare('SELECT count(*) FROM judge_reps').pluck().get()).toBe(before);
    expect(engineStore(b).db.prepare('SELECT count(*) FROM studies').pluck().get()).toBe(1);
  });

  it('opens a running study paused, beside a differing suite of the same id, never into it', () => {
    engineStore(a).db.prepare(`UPDATE studies SET status = 'running' WHERE id = ?`).run(studyId);
    const running = join(dirs.files.path, 'running.json.gz');
    exportBundle(engineStore(a), studyId, running);
    engineStore(a).db.prepare(`UPDATE studies SET status = 'completed' WHERE id = ?`).run(studyId);
    const c = createEngine({ path: dirs.c.path, source: 'flag' });
    try {
      const changed = {
        ...suite(),
        items: suite().items.map((item) => ({ ...item, task: 'Another task.' })),
      };
      saveSuite(engineStore(c), changed, 'imported');
      const opened = openBundle(engineStore(c), running);
      // The workspace's suite keeps its own item; the bundle's suite is renamed.
      expect(opened.suiteId).toMatch(new RegExp(`^${changed.id}~bundle-[0-9a-f]{10}$`));
      const tasks = engineStore(c)
        .db.prepare('SELECT suite_id, body_json FROM suite_items ORDER BY suite_id')
        .all() as { suite_id: string; body_json: string }[];
      expect(
        tasks.map((row) => [row.suite_id, (JSON.parse(row.body_json) as { task: string }).task]),
      ).toEqual([
        [changed.id, 'Another task.'],
        [opened.suiteId, suite().items[0]!.task],
      ]);
      expect(engineStore(c).db.prepare('SELECT status, paused_reason FROM studies').get()).toEqual({
        status: 'paused',
        paused_reason: 'opened from a bundle; resume to run its remaining jobs here',
      });
    } finally {
      c.close();
    }
  });

  it('carries live-web recordings and dimension gold; a bundle written before them still opens', () => {
    const [rep] = engineStore(a)
      .db.prepare('SELECT id FROM judge_reps WHERE study_id = ? ORDER BY id LIMIT 1')
      .all(studyId) as { id: string }[];
    const [item] = engineStore(a)
      .db.prepare('SELECT item_id FROM study_items WHERE study_id = ? LIMIT 1')
      .all(studyId) as { item_id: string }[];
    const recording = JSON.stringify({ searches: [], pages: [{ url: 'https://example.org/' }] });
    engineStore(a)
      .db.prepare('INSERT INTO judge_rep_web (rep_id, recording_json) VALUES (?, ?)')
      .run(rep!.id, recording);
    engineStore(a)
      .db.prepare(
        `INSERT INTO dimension_gold
           (study_id, item_id, dimension, gold, source, decided_by, evidence_reps, created_at)
         VALUES (?, ?, 'safety', 'pass', 'ensemble', 'majority', 3, '2026-12-01T00:00:00Z')`,
      )
      .run(studyId, item!.item_id);
    const file = join(dirs.files.path, 'with-web.json.gz');
    exportBundle(engineStore(a), studyId, file);
    const d = createEngine({ path: makeTempDir().path, source: 'flag' });
    const e = createEngine({ path: makeTempDir().path, source: 'flag' });
    try {
      openBundle(engineStore(d), file);
      expect(
        engineStore(d).db.prepare('SELECT rep_id, recording_json FROM judge_rep_web').all(),
      ).toEqual([{ rep_id: rep!.id, recording_json: recording }]);
      expect(
        engineStore(d).db.prepare('SELECT item_id, dimension, gold FROM dimension_gold').all(),
      ).toEqual([{ item_id: item!.item_id, dimension: 'safety', gold: 'pass' }]);
      // The same bundle as an older CueLab wrote it: no such tables at all.
      const bundle = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as {
        tables: Record<string, unknown>;
      };
      delete bundle.tables.webRecordings;
      delete bundle.tables.dimensionGold;
      const older = join(dirs.files.path, 'older.json.gz');
      writeFileSync(older, gzipSync(JSON.stringify(bundle)));
      expect(openBundle(engineStore(e), older).studyId).toBe(studyId);
      expect(engineStore(e).db.prepare('SELECT COUNT(*) AS n FROM judge_rep_web').get()).toEqual({
        n: 0,
      });
    } finally {
      d.close();
      e.close();
    }
  });
});
