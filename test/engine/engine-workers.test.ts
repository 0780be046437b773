/**
 * The engine's worker threads (src/main/engine/workers): a job runs in a real worker thread
 * over its own connection to a real SQLite workspace, its value and errors come back as they
 * were, a cancelled job's worker is replaced, and the workers close.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/main/engine/errors';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import { repHandlers } from '../../src/main/engine/api/rep-handlers';
import { reportTable, workbenchPage } from '../../src/main/engine/reports';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { workerNice } from '../../src/main/engine/workers/thread-priority';
import {
  createEngineWorkers,
  JobCancelledError,
  type EngineWorkers,
} from '../../src/main/engine/workers';
import { labMethods } from '../../src/shared/lab-api';
import { studySpecSchema } from '../../src/shared/study-spec';
import { deferring, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { useTempStore } from '../helpers/temp-store';

describe('the engine worker threads', () => {
  const workspace = useTempStore();
  let workers: EngineWorkers | undefined;
  afterEach(async () => {
    await workers?.close();
    workers = undefined;
  });

  async function study(): Promise<string> {
    const file = suite();
    saveSuite(workspace.store(), file, 'imported');
    const spec = studySpecSchema.parse({
      name: 'worker study',
      suite: file.id,
      judges: [{ id: 'j', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
      reps: 2,
    });
    return runSyntheticStudy(workspace.store(), spec, file.items, deferring);
  }

  it('draws a study’s tables in a worker thread, the same numbers the engine’s thread draws', async () => {
    const studyId = await study();
    const path = workspace.store().path;
    workers = createEngineWorkers(path);
    // The runner drew them when the study ended; this draw is the worker's alone.
    rmSync(persistedTablesDir(path), { recursive: true, force: true });
    expect(existsSync(persistedTablesDir(path))).toBe(false);
    const drawn = await workers.run('reports', 'drawTables', { studyId });
    expect(drawn).toEqual({ studyId });
    // The worker wrote every table under the study's key, from its own connection.
    expect(readdirSync(persistedTablesDir(path)).sort()).toHaveLength(2);
    const inWorker = await workers.run('reports', 'reportTable', { studyId, name: 'flips' });
    const here = reportTable(workspace.store(), studyId, 'flips');
    expect(inWorker.rows).toEqual(here.rows);
    expect(inWorker.simulated).toBe(true);
    expect(inWorker.rows.length).toBeGreaterThan(0);
    expect(threadId).toBe(0);
  });

  /** This process's threads whose nice value is `nice` (Linux: /proc/self/task/TID/stat). */
  function threadsAtNice(nice: number): string[] {
    return readdirSync('/proc/self/task').filter((thread) => {
      try {
        const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
        // Fields after the command's closing parenthesis; nice is the 19th field of the line.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[16]) === nice;
      } catch {
        return false; // the thread ended while the folder was read
      }
    });
  }

  it.runIf(process.platform === 'linux')(
    'runs its jobs at a lower priority than the thread that asks for them',
    async () => {
      const before = threadsAtNice(workerNice);
      workers = createEngineWorkers(workspace.store().path);
      await workers.run('reports', 'staleStudies', {});
      const after = threadsAtNice(workerNice);
      const lowered = after.filter((thread) => !before.includes(thread));
      expect(lowered.length).toBeGreaterThanOrEqual(1);
      // The asking thread (the engine's, here the test's) keeps its priority.
      const asking = Number(readlinkSync('/proc/thread-self').split('/').pop());
      expect(getPriority(asking)).toBe(0);
      expect(lowered).not.toContain(String(asking));
    },
  );

  it('answers a workbench page on the reads lane, at the normal priority, as this thread would', async () => {
    const studyId = await study();
    const store = workspace.store();
    workers = createEngineWorkers(store.path);
    const lowered = threadsAtNice(workerNice);
    const handlers = repHandlers({ store, workers });
    const request = labMethods.queryReps.request.parse({ studyId, flipped: 'any' });
    const answer = handlers.queryReps(request);
    // Handed to the reads worker, not computed on the thread that asked.
    expect(workers.busy('reads')).toBe(1);
    const page = await answer;
    expect(page).toEqual(workbenchPage(store, request));
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((row) => row.flip !== null)).toBe(true);
    // A person waits on a page: its worker does not give way as the heavy lanes' do.
    expect(threadsAtNice(workerNice)).toEqual(lowered);
  });

  it('warms the reads lane: its worker starts and opens the workspace', async () => {
    workers = createEngineWorkers(workspace.store().path);
    const lowered = threadsAtNice(workerNice);
    const threads = readdirSync('/proc/self/task').length;
    const warmed = workers.run('reads', 'warmUp', {});
    expect(workers.busy('reads')).toBe(1);
    await expect(warmed).resolves.toEqual({ databasePath: workspace.store().path });
    expect(workers.busy('reads')).toBe(0);
    // A thread more, at the normal priority.
    expect(readdirSync('/proc/self/task').length).toBeGreaterThan(threads);
    expect(threadsAtNice(workerNice)).toEqual(lowered);
  });

  it('returns an engine error as the same code and message', async () => {
    workers = createEngineWorkers(workspace.store().path);
    const failed = workers.run('reports', 'reportTable', {
      studyId: 'no-such-study',
      name: 'flips',
    });
    await expect(failed).rejects.toBeInstanceOf(EngineError);
    await expect(failed).rejects.toMatchObject({ code: 'not_found' });
  });

  it('cancels a waiting and a running job, and the next job gets a fresh worker', async () => {
    const studyId = await study();
    workers = createEngineWorkers(workspace.store().path);
    const first = new AbortController();
    const second = new AbortController();
    const running = workers.run('reports', 'drawTables', { studyId }, { signal: first.signal });
    const waiting = workers.run('reports', 'drawTables', { studyId }, { signal: second.signal });
    expect(workers.busy('reports')).toBe(2);
    second.abort();
    first.abort();
    await expect(waiting).rejects.toBeInstanceOf(JobCancelledError);
    await expect(running).rejects.toBeInstanceOf(JobCancelledError);
    expect(workers.busy('reports')).toBe(0);
    const table = await workers.run('reports', 'reportTable', { studyId, name: 'accuracy' });
    expect(table.name).toBe('accuracy');
  });

  it('fails what is left when closed', async () => {
    const studyId = await study();
    workers = createEngineWorkers(workspace.store().path);
    const pending = expect(workers.run('files', 'drawTables', { studyId })).rejects.toBeInstanceOf(
      JobCancelledError,
    );
    await workers.close();
    await pending;
    await expect(workers.run('files', 'drawTables', { studyId })).rejects.toBeInstanceOf(
      JobCancelledError,
    );
  });
});
