import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { importResultsFile } from '../../src/main/engine/reports';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import type { LabEventMessage } from '../../src/shared/lab-api';
import {
  createLabClient,
  subscribeLabEvents,
  type WebSocketLike,
} from '../../src/shared/lab-client';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('LabApi for studies: estimate, create, progress events, control, tables, secrets', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let server: RunningServer;
  let models: FakeModelServer;

  beforeAll(async () => {
    models = await startFakeModelServer({ latencyMs: 5 });
    models.handle('anthropic', deferentialJudge());
    engine = createEngine({ path: dir.path, source: 'flag' });
    saveSuite(
      engineStore(engine),
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    server = await startServer({ engine, rendererDir: dir.path });
    engine.startRunner({ concurrency: 2 });
  });
  afterAll(async () => {
    await engine.stopRunner();
    await server.close();
    engine.close();
    await models.close();
    dir.remove();
  });

  const spec = () => ({
    name: 'api study',
    suite: 'fixture-suite',
    judges: [
      { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: models.url },
    ],
    reps: 2,
    arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system', 'user'] },
  });

  it('estimates a spec, warning about the missing key, and rejects a broken one naming the field', async () => {
    const client = createLabClient(server.address);
    await client.setSecret({ name: 'ANTHROPIC_API_KEY', value: '' });
    const estimate = await client.estimateStudy({ spec: spec() });
    expect(estimate.ok).toBe(true);
    if (estimate.ok) {
      expect(estimate.value).toMatchObject({
        items: 2,
        judges: 1,
        conditions: 3,
        uncuedReps: 4,
        cuedReps: 8,
        totalReps: 12,
        // No rep of this model has run here yet: the time per rep is the default.
        secondsMeasured: false,
        secondsBasis: 'fake: default 90 s per rep (fewer than 5 reps measured here)',
      });
      expect(estimate.value.warnings.map((warning) => warning.code)).toContain('missing_key');
    }
    const broken = await client.estimateStudy({ spec: { ...spec(), reps: 'three' } });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.message).toContain('reps');
  });

  it('keeps keys out of every answer: only the last four characters come back', async () => {
    const client = createLabClient(server.address);
    const set = await client.setSecret({
      name: 'ANTHROPIC_API_KEY',
      value: 'sk-test-1234567890abcd',
    });
    expect(set).toEqual({ ok: true, value: { name: 'ANTHROPIC_API_KEY', set: true } });
    const listed = await client.listSecrets({});
    expect(JSON.stringify(listed)).not.toContain('sk-test-1234567890');
    expect(listed.ok && listed.value.find((entry) => entry.name === 'ANTHROPIC_API_KEY')).toEqual({
      name: 'ANTHROPIC_API_KEY',
      source: 'session',
      hint: '…abcd',
    });
  });

  it('creates a study that the engine runs, streaming progress until it completes', async () => {
    const client = createLabClient(server.address);
    const events: LabEventMessage[] = [];
    let connected: () => void = () => undefined;
    const open = new Promise<void>((resolve) => (connected = resolve));
    const completed = new Promise<void>((resolve) => {
      const close = subscribeLabEvents(
        server.address,
        (url) => new WebSocket(url) as unknown as WebSocketLike,
        {
          onEvent: (event) => {
            if (event.stream === 'engine.hello') connected();
            events.push(event);
            if (event.stream === 'study.progress' && event.data.status === 'completed') {
              close();
              resolve();
            }
          },
        },
      );
    });
    await open;
    const created = await client.createStudy({ spec: spec(), trustedEndpoints: [models.url] });
    expect(created.ok).toBe(true);
    await completed;
    const progressEvents = events.filter((event) => event.stream === 'study.progress');
    expect(progressEvents.length).toBeGreaterThanOrEqual(2);
    const statuses = progressEvents.map((event) =>
      event.stream === 'study.progress' ? event.data.status : '',
    );
    expect(statuses[0]).toBe('running');
    expect(statuses.at(-1)).toBe('completed');
    // 2 items × 1 judge × 2 reps: 4 uncued jobs, then under `opposite` 2 cued conditions × 4
    // = 8 cued jobs, queued only as each item's majority is fixed. The plan counts all 12 from
    // the first report, so percent done never falls; once a rep is done the ETA is measured.
    const reports = progressEvents.flatMap((event) =>
      event.stream === 'study.progress' ? [event.data] : [],
    );
    expect(reports[0]?.total).toBeLessThan(12);
    expect(reports.map((report) => report.plannedTotal)).toEqual(reports.map(() => 12));
    const fractions = reports.map((report) => report.done / report.plannedTotal);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const afterFirstRep = reports.filter((report) => report.done > 0);
    expect(afterFirstRep.length).toBeGreaterThan(0);
    for (const report of afterFirstRep) {
      expect(Number.isFinite(report.etaSeconds)).toBe(true);
      expect(report.etaSeconds).toBeGreaterThanOrEqual(0);
      expect(report.repsPerMinute).toBeGreaterThan(0);
    }
    expect(reports.at(-1)).toMatchObject({ done: 12, plannedTotal: 12, etaSeconds: 0 });

    // The Builder's estimate now learns from the 12 reps measured on this machine.
    const learned = await client.estimateStudy({ spec: spec() });
    expect(learned.ok && learned.value.secondsMeasured).toBe(true);
    expect(learned.ok && learned.value.secondsBasis).toMatch(
      /^fake: median \d+\.\d s per rep over 12 reps measured here$/,
    );
    expect(learned.ok && learned.value.estimatedSeconds).toBeLessThan((12 * 90) / 4);
    const studyId = created.ok ? created.value.studyId : '';
    const progress = await client.studyProgress({ studyId });
    expect(progress.ok && progress.value).toMatchObject({
      status: 'completed',
      total: 12,
      done: 12,
      failed: 0,
    });

    const flips = await client.reportTable({ studyId, table: 'flips' });
    expect(flips.ok).toBe(true);
    if (flips.ok) {
      expect(flips.value.simulated).toBe(false);
      expect(flips.value.rows.length).toBeGreaterThan(0);
    }
    const csv = await client.reportCsv({ studyId, table: 'flips' });
    expect(csv.ok && csv.value.csv.split('\n')[0]).toContain(',');
    const reps = await client.listReps({ studyId, conditionKey: 'preset:strong@user' });
    expect(reps.ok && reps.value.map((rep) => rep.verdict)).toEqual([
      'fail',
      'fail',
      'fail',
      'fail',
    ]);
    const unknownTable = await client.reportTable({ studyId, table: 'nope' });
    expect(!unknownTable.ok && unknownTable.error.code).toBe('bad_request');
  });

  it('lists the reps behind a cell of an imported study', async () => {
    const summary = importResultsFile(
      engineStore(engine),
      join(__dirname, '..', 'fixtures', 'results', 'simulated.csv'),
    );
    const client = createLabClient(server.address);
    const reps = await client.listReps({ studyId: summary.studyId });
    expect(reps.ok).toBe(true);
    if (reps.ok) {
      expect(reps.value.length).toBeGreaterThan(0);
      expect(reps.value[0]?.repId).toMatch(/^imported:\d+$/);
      // The file marks some rows simulated and some not; each rep keeps its own mark.
      const csv = readFileSync(
        join(__dirname, '..', 'fixtures', 'results', 'simulated.csv'),
        'utf8',
      );
      const marked = csv
        .trim()
        .split('\n')
        .slice(1)
        .filter((line) => line.endsWith(',true')).length;
      expect(reps.value.filter((rep) => rep.simulated)).toHaveLength(marked);
      expect(marked).toBeGreaterThan(0);
    }
  });

  it('pauses and resumes a study', async () => {
    const client = createLabClient(server.address);
    const created = await client.createStudy({
      spec: { ...spec(), name: 'paused one', reps: 3 },
      trustedEndpoints: [models.url],
    });
    const studyId = created.ok ? created.value.studyId : '';
    const paused = await client.controlStudy({ studyId, action: 'pause' });
    expect(paused.ok && paused.value.status).toBe('paused');
    expect(paused.ok && paused.value.pausedReason).toBe('paused by the researcher');
    const resumed = await client.controlStudy({ studyId, action: 'resume' });
    expect(resumed.ok && resumed.value.status).toBe('running');
  });
});
