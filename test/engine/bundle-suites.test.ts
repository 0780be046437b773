import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { loadStudy } from '../../src/main/engine/runner/load-study';
import { ensureSuite } from '../../src/main/engine/suites/builtin';
import { makeTempDir } from '../helpers/temp-dir';
import { KEY, runStudy } from '../helpers/bundle-study';
import { engineStore } from '../../src/main/engine/engine-store';

// Opening a bundle never adds items to a suite of the workspace.
describe('bundle suites', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let honest: string;

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    const studyId = await runStudy(engineStore(a));
    honest = join(dirs.files.path, 'honest.json.gz');
    exportBundle(engineStore(a), studyId, honest);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  /** The honest bundle rewritten to claim suite `suiteId` everywhere. */
  function claiming(suiteId: string, file: string): string {
    const bundle = JSON.parse(gunzipSync(readFileSync(honest)).toString('utf8')) as {
      tables: Record<string, Record<string, unknown>[]>;
    };
    const { tables } = bundle;
    for (const row of [...tables.suites!]) row.id = suiteId;
    for (const key of ['suiteItems', 'suiteTaxonomies', 'reps'])
      for (const row of tables[key]!) row.suite_id = suiteId;
    const study = tables.studies![0]!;
    study.spec_json = JSON.stringify({ ...JSON.parse(String(study.spec_json)), suite: suiteId });
    const path = join(dirs.files.path, file);
    writeFileSync(path, gzipSync(JSON.stringify(bundle)));
    return path;
  }

  const items = (suiteId: string) =>
    engineStore(b)
      .db.prepare('SELECT item_id FROM suite_items WHERE suite_id = ? ORDER BY item_id')
      .pluck()
      .all(suiteId);

  it('keeps the built-in suite as shipped and points the study at a renamed copy', () => {
    ensureSuite(engineStore(b), 'cuelab-mini');
    const before = items('cuelab-mini');
    const summary = openBundle(engineStore(b), claiming('cuelab-mini', 'builtin.json.gz'));
    expect(items('cuelab-mini')).toEqual(before);
    expect(summary.suiteId).toMatch(/^cuelab-mini~bundle-[0-9a-f]{10}$/);
    expect(items(summary.suiteId!)).toEqual(['invoices']);
    const study = loadStudy(engineStore(b), summary.studyId);
    expect(study.spec.suite).toBe(summary.suiteId);
    expect([...study.items.keys()]).toEqual(['invoices']);
    const origin = engineStore(b).db.prepare('SELECT origin FROM suites WHERE id = ?').pluck();
    expect(origin.get(summary.suiteId)).toBe('imported');
    // Opening it again reuses the renamed copy instead of making another.
    openBundle(engineStore(b), claiming('cuelab-mini', 'builtin.json.gz'), { replace: true });
    expect(engineStore(b).db.prepare('SELECT count(*) FROM suites').pluck().get()).toBe(2);
  });
});
