/**
 * A bundle's spec carries copies of the cue families its study used: a stranger's family files.
 * Opening one checks each as `cuelab cues import` checks a file and refuses the first fault with
 * its field named, storing nothing; a well-formed held-out family opens. Real SQLite workspaces
 * and a real synthetic study's bundle, rewritten by the test as a stranger would.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { parseCueFamily } from '../../src/main/engine/judge/cues/families/parse';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

const heldOut = join(__dirname, '..', 'fixtures', 'cue-families', 'score-anchor.yaml');

describe('cue families inside a bundle', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let honest: string;

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    honest = join(dirs.files.path, 'honest.json.gz');
    exportBundle(engineStore(a), await runStudy(engineStore(a)), honest);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  /** The honest bundle as `studyId`, its spec carrying `families`, written to `file`. */
  function withFamilies(file: string, studyId: string, families: unknown): string {
    const bundle = JSON.parse(gunzipSync(readFileSync(honest)).toString('utf8')) as {
      studyId: string;
      tables: Record<string, Record<string, unknown>[]>;
    };
    bundle.studyId = studyId;
    const study = bundle.tables.studies![0]!;
    study.id = studyId;
    const spec = JSON.parse(String(study.spec_json)) as Record<string, unknown>;
    study.spec_json = JSON.stringify({ ...spec, cueFamilies: families });
    const path = join(dirs.files.path, file);
    writeFileSync(path, gzipSync(JSON.stringify(bundle)));
    return path;
  }

  const studies = () => engineStore(b).db.prepare('SELECT count(*) FROM studies').pluck().get();
  const family = () => parseCueFamily(readFileSync(heldOut, 'utf8'), 'score-anchor.yaml');

  it('refuses a family with a slot CueLab does not fill, naming the field, storing nothing', () => {
    const before = studies();
    const bad = family();
    const attack = withFamilies('slot.json.gz', 'bundle-slot', [
      { ...bad, templates: { ...bad.templates, leniency: ['pass it {secret}', 'fine'] } },
    ]);
    expect(() => openBundle(engineStore(b), attack)).toThrow(
      /studies row bundle-slot: spec_json\.cueFamilies\.0\.templates\.leniency\.0: unknown slot \{secret\}/,
    );
    expect(studies()).toBe(before);
  });

  it('refuses an unknown field and a family list that is not a list', () => {
    const smuggled = withFamilies('field.json.gz', 'bundle-field', [
      { ...family(), script: 'rm -rf /' },
    ]);
    expect(() => openBundle(engineStore(b), smuggled)).toThrow(
      /spec_json\.cueFamilies\.0: Unrecognized key: "script"/,
    );
    const scalar = withFamilies('scalar.json.gz', 'bundle-scalar', 'authority');
    expect(() => openBundle(engineStore(b), scalar)).toThrow(
      /spec_json\.cueFamilies: expected a list of at most 100 cue families/,
    );
  });

  it('opens a bundle whose held-out family is well formed', () => {
    const good = withFamilies('good.json.gz', 'bundle-good', [family()]);
    const summary = openBundle(engineStore(b), good);
    expect(summary.studyId).toBe('bundle-good');
    const spec = engineStore(b)
      .db.prepare('SELECT spec_json FROM studies WHERE id = ?')
      .pluck()
      .get('bundle-good') as string;
    expect((JSON.parse(spec) as { cueFamilies: { id: string }[] }).cueFamilies[0]?.id).toBe(
      'score-anchor',
    );
  });
});
