/**
 * File work on the engine's files worker (api/file-work.ts, workers/file-jobs.ts), against a
 * real SQLite workspace and real worker threads: an export leaves the engine's thread free to
 * answer first, reports its progress and can be cancelled; a broken bundle's error crosses as
 * it is and stores nothing; an import's study and suite are published once the worker stored
 * them. No timing: order and content only.
 */
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { confinedTo, runConfined } from '../../src/main/engine/confined-read';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { EngineError } from '../../src/main/engine/errors';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { createEngineWorkers, JobCancelledError } from '../../src/main/engine/workers';
import { newCommitFlag } from '../../src/main/engine/workers';
import type { LabEventMessage } from '../../src/shared/lab-api';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { answerOf } from '../helpers/answer';

const resultsFixture = join(__dirname, '..', 'fixtures', 'results', 'mini-results.csv');
const exampleRuns = join(__dirname, '..', '..', 'resources', 'runs', 'terminal-bench-hello-world');

describe('file work on the files worker', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let studyId: string;
  const heard: LabEventMessage[] = [];

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    studyId = await runStudy(engineStore(a));
    a.events.subscribe((event) => heard.push(event));
    b.events.subscribe((event) => heard.push(event));
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('exports a bundle off the engine’s thread: a request sent after it is answered first', async () => {
    heard.length = 0;
    const order: string[] = [];
    const exporting = answerOf(a.handlers.exportBundle({ studyId })).then((bundle) => {
      order.push('export');
      return bundle;
    });
    const studies = await a.handlers.listStudies({});
    order.push('listStudies');
    const bundle = await exporting;
    expect(order).toEqual(['listStudies', 'export']);
    expect(studies.map((study) => study.id)).toContain(studyId);
    // The worker's bundle is the whole study, redacted and gzipped as before.
    const text = gunzipSync(Buffer.from(bundle.base64, 'base64')).toString('utf8');
    expect(bundle).toMatchObject({ reps: 6, bytes: Buffer.from(bundle.base64, 'base64').length });
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({ studyId, format: 'cuelab-study-bundle' });
    // Whoever waits heard how far it came, step by step, from the worker.
    const steps = heard.flatMap((event) =>
      event.stream === 'files.progress' && event.data.method === 'exportBundle'
        ? [event.data.step]
        : [],
    );
    expect(steps).toEqual([
      'starting',
      'reading the study',
      'writing rows, redacted and compressed',
    ]);
    writeFileSync(join(dirs.files.path, 'study.json.gz'), Buffer.from(bundle.base64, 'base64'));
  });

  it('redacts a session key the worker’s own environment never held', async () => {
    // Not shaped like any provider's key: only knowing the value redacts it.
    const sessionKey = 'plain-session-secret-0a9b8c7d6e5f';
    const store = engineStore(a);
    const name = store.db.prepare('SELECT name FROM studies WHERE id = ?').pluck().get(studyId);
    // Stored before the engine knew the key (so in clear), then handed to this engine only.
    store.db
      .prepare('UPDATE studies SET name = ? WHERE id = ?')
      .run(`study ${sessionKey}`, studyId);
    await a.handlers.setSecret({ name: 'EXTRA_API_KEY', value: sessionKey });
    try {
      const bundle = await answerOf(a.handlers.exportBundle({ studyId }));
      const text = gunzipSync(Buffer.from(bundle.base64, 'base64')).toString('utf8');
      expect(text).not.toContain(sessionKey);
      expect(text).toContain('study [redacted:EXTRA_API_KEY]');
      expect(bundle.redacted).toContain('EXTRA_API_KEY');
    } finally {
      await a.handlers.setSecret({ name: 'EXTRA_API_KEY', value: '' });
      store.db.prepare('UPDATE studies SET name = ? WHERE id = ?').run(name, studyId);
    }
  });

  it('cancels a running export, and the next export gets a fresh worker', async () => {
    const workers = createEngineWorkers(engineStore(a).path);
    try {
      const controller = new AbortController();
      const steps: string[] = [];
      const cancelled = workers.run(
        'files',
        'exportBundle',
        { studyId, keys: [], commit: newCommitFlag() },
        {
          signal: controller.signal,
          // Cancelled once it is surely running: its first step was heard from the worker.
          onProgress: (progress) => {
            steps.push(progress.step ?? '');
            controller.abort();
          },
        },
      );
      await expect(cancelled).rejects.toBeInstanceOf(JobCancelledError);
      expect(steps).toEqual(['reading the study']);
      expect(workers.busy('files')).toBe(0);
      const again = await workers.run('files', 'exportBundle', {
        studyId,
        keys: [],
        commit: newCommitFlag(),
      });
      expect(again.reps).toBe(6);
    } finally {
      await workers.close();
    }
  });

  it('names a broken bundle as the engine’s thread would, and stores nothing of it', async () => {
    const notBundle = join(dirs.files.path, 'not-a-bundle.json.gz');
    writeFileSync(notBundle, gzipSync(Buffer.from('{"format":"something-else"}')));
    let here: unknown;
    try {
      openBundle(engineStore(b), notBundle);
    } catch (error) {
      here = error;
    }
    expect(here).toBeInstanceOf(EngineError);
    const crossed = await Promise.resolve(b.handlers.openBundle({ path: notBundle })).catch(
      (error: unknown) => error,
    );
    expect(crossed).toBeInstanceOf(EngineError);
    expect(crossed).toMatchObject({
      code: (here as EngineError).code,
      message: (here as EngineError).message,
    });

    // A bundle whose jobs the schema refuses fails inside the worker's transaction, after its
    // study, suite and reps were inserted: all of it rolls back.
    const good = JSON.parse(
      gunzipSync(readFileSync(join(dirs.files.path, 'study.json.gz'))).toString('utf8'),
    ) as { tables: { jobs: Record<string, unknown>[] } };
    const last = good.tables.jobs.length - 1;
    good.tables.jobs[last] = { ...good.tables.jobs[last], item_id: null };
    const damaged = join(dirs.files.path, 'damaged.json.gz');
    writeFileSync(damaged, gzipSync(Buffer.from(JSON.stringify(good))));
    const suitesBefore = await b.handlers.listSuites({});
    await expect(b.handlers.openBundle({ path: damaged })).rejects.toThrow(
      /is a damaged study bundle: .*Nothing was stored\./,
    );
    expect((await b.handlers.listStudies({})).map((study) => study.id)).not.toContain(studyId);
    expect(await b.handlers.listSuites({})).toEqual(suitesBefore);
  });

  it('opens a bundle in the worker; this thread sees the study and publishes it', async () => {
    heard.length = 0;
    const opened = await b.handlers.openBundle({ path: join(dirs.files.path, 'study.json.gz') });
    expect(opened).toMatchObject({ studyId, reps: 6, replaced: false, suiteCreated: true });
    const progress = await b.handlers.studyProgress({ studyId });
    expect(progress.done).toBe(6);
    expect(heard).toContainEqual({ stream: 'studies.changed', data: { studyId } });
    expect(heard.some((event) => event.stream === 'files.progress')).toBe(true);
  });

  it('imports results as a study that is listed and published afterwards', async () => {
    heard.length = 0;
    const summary = await b.handlers.importResults({ path: resultsFixture, name: 'imported' });
    expect(summary).toMatchObject({ name: 'imported', format: 'csv', reps: 24 });
    const listed = (await b.handlers.listStudies({})).find((study) => study.id === summary.studyId);
    expect(listed?.name).toBe('imported');
    expect(heard).toContainEqual({ stream: 'studies.changed', data: { studyId: summary.studyId } });
  });

  it('keeps a results file’s bad rows when the worker refuses it', async () => {
    const bad = join(__dirname, '..', 'fixtures', 'results', 'bad-rows.csv');
    const refused = await Promise.resolve(b.handlers.importResults({ path: bad })).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).message).toBe(
      'bad-rows.csv was not imported: 8 problems; nothing was stored.',
    );
    expect((refused as { problems?: string[] }).problems).toHaveLength(8);
  });

  it('imports runs as a suite in the worker and publishes the stored suite', async () => {
    heard.length = 0;
    const answer = await b.handlers.importRuns({
      path: exampleRuns,
      format: 'auto',
      name: 'worker runs',
      save: true,
    });
    expect(answer.saved).toBe(true);
    expect(answer.imported.length).toBeGreaterThan(0);
    expect((await b.handlers.listSuites({})).map((suite) => suite.id)).toContain(answer.suiteId);
    expect(heard).toContainEqual({ stream: 'suites.changed', data: { suiteId: answer.suiteId } });
    const reading = heard.filter(
      (event) => event.stream === 'files.progress' && event.data.method === 'importRuns',
    );
    expect(reading.length).toBeGreaterThan(0);
  });

  it('keeps a served request’s reads confined to its roots in the worker too', async () => {
    // The same results file, once outside the roots the request may read and once inside.
    const outside = join(dirs.files.path, 'outside');
    const inside = join(dirs.files.path, 'inside');
    mkdirSync(outside);
    mkdirSync(inside);
    for (const folder of [outside, inside])
      copyFileSync(resultsFixture, join(folder, 'results.csv'));
    const served = confinedTo([realpathSync(inside)]);
    const refused = await runConfined(served, () =>
      Promise.resolve(b.handlers.importResults({ path: join(outside, 'results.csv') })),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).message).toContain('outside the folders this engine may read');
    const read = await runConfined(served, () =>
      Promise.resolve(b.handlers.importResults({ path: join(inside, 'results.csv') })),
    );
    expect(read.reps).toBe(24);
  });
});
