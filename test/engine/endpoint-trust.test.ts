import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import {
  parseEnsembleConfig,
  providerForVoter,
} from '../../src/main/engine/metajudge/ensemble/voters';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { resumeStudy, studyProgress } from '../../src/main/engine/store/study-state';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import type { EndpointTrust } from '../../src/main/engine/providers/endpoint-trust';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema, type StudySpecInput } from '../../src/shared/study-spec';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// A stranger's spec or bundle cannot send the user's keys to its server.
const KEY = 'sk-ant-victim-key-0123456789abcdef';
const fixtureSuite = join(__dirname, '..', 'fixtures', 'mini-suite.json');

describe('keys go only where the user allowed', () => {
  let evil: FakeModelServer;
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  let engine: Engine;

  beforeAll(async () => {
    evil = await startFakeModelServer();
    evil.handle('anthropic', deferentialJudge());
  });
  afterAll(async () => {
    engine?.close();
    await evil.close();
    for (const dir of dirs) dir.remove();
  });
  beforeEach(() => {
    engine?.close();
    const dir = makeTempDir();
    dirs.push(dir);
    engine = createEngine({ path: dir.path, source: 'flag' });
    saveSuite(engineStore(engine), loadSuiteFile(fixtureSuite), 'imported');
  });

  const exfiltrating = (judge: Partial<StudySpecInput['judges'][number]> = {}) =>
    studySpecSchema.parse({
      name: 'looks harmless',
      suite: 'fixture-suite',
      judges: [
        { id: 'j', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: evil.url, ...judge },
      ],
      reps: 1,
      concurrency: { total: 1, containers: 1 },
    });

  async function runAll(studyId: string, trust?: EndpointTrust) {
    const env = { ANTHROPIC_API_KEY: KEY, NODE_OPTIONS: '--require /tmp/x.js', HOME_TOKEN_X: '' };
    const deps = workspaceRunnerDeps(engineStore(engine), { env, ...(trust ? { trust } : {}) });
    const runner = new StudyRunner(deps, { concurrency: 1, studyIds: [studyId], pollMs: 10 });
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    return studyProgress(engineStore(engine), studyId);
  }

  const create = (spec: ReturnType<typeof exfiltrating>) =>
    createStudy(engineStore(engine), spec, listSuiteItems(engineStore(engine), 'fixture-suite'));

  it('a spec naming its own server pauses with the fix, and no request reaches the server', async () => {
    const before = evil.callCount();
    const progress = await runAll(create(exfiltrating()), { endpoints: [], keyEnvNames: [] });
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toContain(`--trust-endpoint ${evil.url}`);
    expect(evil.callCount()).toBe(before);
  });

  it('a spec naming a non-key variable is refused even at a trusted endpoint', async () => {
    const before = evil.callCount();
    const spec = exfiltrating({ apiKeyEnv: 'NODE_OPTIONS' });
    const progress = await runAll(create(spec), { endpoints: [evil.url], keyEnvNames: [] });
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toContain('apiKeyEnv NODE_OPTIONS is not a key variable');
    expect(evil.callCount()).toBe(before);
  });

  it('runs once the user trusts the endpoint, and the key reaches it', async () => {
    const progress = await runAll(create(exfiltrating()), {
      endpoints: [evil.url],
      keyEnvNames: [],
    });
    expect(progress.status).toBe('completed');
    expect(evil.requests('anthropic').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a bundle brings no trust: resuming its study sends nothing', async () => {
    const studyId = create(exfiltrating({ id: 'bundled' }));
    const file = join(dirs[dirs.length - 1]!.path, 'study.json.gz');
    exportBundle(engineStore(engine), studyId, file);
    engine.close();
    const other = makeTempDir();
    dirs.push(other);
    engine = createEngine({ path: other.path, source: 'flag' });
    openBundle(engineStore(engine), file);
    resumeStudy(engineStore(engine), studyId);
    const before = evil.callCount();
    const progress = await runAll(studyId);
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toContain('needs your confirmation');
    expect(evil.callCount()).toBe(before);
  });

  it('the engine API asks first: estimate lists the endpoint, create needs it confirmed', async () => {
    const spec = exfiltrating();
    const estimate = await engine.handlers.estimateStudy({ spec });
    expect(estimate.warnings).toContainEqual(
      expect.objectContaining({ code: 'untrusted_endpoint', endpoint: evil.url }),
    );
    expect(() => engine.handlers.createStudy({ spec })).toThrow(/needs your confirmation/);
    expect(engineStore(engine).db.prepare('SELECT count(*) FROM studies').pluck().get()).toBe(0);
    const created = engine.handlers.createStudy({ spec, trustedEndpoints: [evil.url] });
    expect(created).toHaveProperty('studyId');
    const again = await engine.handlers.estimateStudy({ spec });
    expect(again.warnings.map((warning) => warning.code)).not.toContain('untrusted_endpoint');
  });

  it('a voters file for classify is held to the same rule', () => {
    const config = parseEnsembleConfig({
      voters: [{ id: 'v', provider: 'anthropic', model: 'meta', baseUrl: evil.url }],
    });
    const before = evil.callCount();
    expect(() => providerForVoter(config.voters[0]!, { ANTHROPIC_API_KEY: KEY })).toThrow(
      /needs your confirmation/,
    );
    const trusted = { ANTHROPIC_API_KEY: KEY, CUELAB_TRUSTED_ENDPOINTS: evil.url };
    expect(providerForVoter(config.voters[0]!, trusted).kind).toBe('anthropic');
    expect(evil.callCount()).toBe(before);
  });

  it('cuelab run refuses the spec without --trust-endpoint and makes no request', () => {
    const bin = resolve(__dirname, '..', '..', 'out', 'main', 'cli.js');
    if (!existsSync(bin))
      throw new Error(`${bin} is missing: run "npx electron-vite build" first.`);
    const dir = dirs[dirs.length - 1]!.path;
    const specPath = join(dir, 'evil.json');
    writeFileSync(specPath, JSON.stringify(exfiltrating()));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CUELAB_WORKSPACE: dir,
      ANTHROPIC_API_KEY: KEY,
    };
    delete env.CUELAB_TRUSTED_ENDPOINTS;
    const before = evil.callCount();
    const refused = spawnSync(process.execPath, [bin, 'run', specPath], { env, encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`--trust-endpoint ${evil.url}`);
    expect(evil.callCount()).toBe(before);
  });
});
