/**
 * Report tables drawn in the engine's reports worker thread (api/table-draws.ts), on a real
 * SQLite workspace, real worker threads and the real runner with a synthetic judge: while a
 * study is drawn, the engine's thread answers other requests; the end-of-study drawing and the
 * warm pass on start run in the worker, publish `study.tables` and leave the tables current; a
 * table asked for meanwhile waits for the drawing; closing cancels it; a failure names the study
 * and the table. Orderings are asserted, never times.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { dispatchLabCall } from '../../src/main/engine/api/dispatch';
import { staleNativeStudies } from '../../src/main/engine/reports';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { openStore } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import type { LabEventData, LabEventMessage } from '../../src/shared/lab-api';
import { TABLE_NAMES } from '../../src/shared/report-tables';
import { studySpecSchema } from '../../src/shared/study-spec';
import { runStudy, suite } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

type TablesEvent = LabEventData<'study.tables'>;

const dirs: ReturnType<typeof makeTempDir>[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopRunner();
    engine.close();
  }
  for (const dir of dirs.splice(0)) dir.remove();
});

function workspace(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return dir.path;
}

function start(path: string): Engine {
  const engine = createEngine({ path, source: 'flag' });
  engines.push(engine);
  return engine;
}

/** What happened, in order: each `study.tables` event and each mark the test makes. */
function journal(engine: Engine): {
  entries: (TablesEvent | string)[];
  on(listener: (event: TablesEvent) => void): void;
} {
  const entries: (TablesEvent | string)[] = [];
  const listeners: ((event: TablesEvent) => void)[] = [];
  engine.events.subscribe((message: LabEventMessage) => {
    if (message.stream !== 'study.tables') return;
    entries.push(message.data);
    for (const listener of listeners) listener(message.data);
  });
  return { entries, on: (listener) => listeners.push(listener) };
}

/** Studies run to the end by a runner of their own, then their engine closed. */
async function finishedStudies(path: string, count: number): Promise<string[]> {
  const engine = createEngine({ path, source: 'flag' });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await runStudy(engineStore(engine)));
  engine.close();
  return ids;
}

/** Makes every persisted table file of the workspace look written by an older engine. */
function makeTablesStale(path: string): void {
  const folder = persistedTablesDir(join(path, 'cuelab.sqlite'));
  for (const name of readdirSync(folder)) {
    const file = join(folder, name);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { key: string };
    writeFileSync(
      file,
      JSON.stringify({ ...parsed, key: `older-engine-${parsed.key}`, writer: 'older-engine' }),
    );
  }
}

function staleNow(path: string): string[] {
  const store = openStore(join(path, 'cuelab.sqlite'));
  try {
    return staleNativeStudies(store);
  } finally {
    store.close();
  }
}

const isEvent = (entry: TablesEvent | string): entry is TablesEvent => typeof entry !== 'string';
const finalIndex = (entries: (TablesEvent | string)[], studyId: string) =>
  entries.findIndex(
    (entry) => isEvent(entry) && entry.studyId === studyId && entry.done === entry.total,
  );

describe('report tables in the reports worker', () => {
  it('answers other requests while the worker draws a study', async () => {
    const path = workspace();
    const ids = await finishedStudies(path, 2);
    makeTablesStale(path);
    expect(staleNow(path).sort()).toEqual([...ids].sort());
    const engine = start(path);
    const log = journal(engine);
    let answered: Promise<void> | undefined;
    log.on((event) => {
      if (answered || event.done !== 1) return;
      log.entries.push(`health ${(engine.handlers.health({}) as { status: string }).status}`);
      answered = (async () => {
        const studies = await engine.handlers.listStudies({});
        log.entries.push(`listStudies ${studies.length}`);
      })();
    });
    expect(await engine.warmTables()).toBe(2);
    await answered;
    const first = log.entries.find(isEvent) as TablesEvent;
    const health = log.entries.indexOf('health ok');
    const list = log.entries.indexOf('listStudies 2');
    expect(health).toBeGreaterThan(0);
    expect(list).toBeGreaterThan(health);
    // Both answers came before the study being drawn had its last table.
    expect(list).toBeLessThan(finalIndex(log.entries, first.studyId));
    expect(staleNow(path)).toEqual([]);
  });

  it('serves a current table on the engine’s thread while the worker draws another study', async () => {
    const path = workspace();
    const [stale, current] = (await finishedStudies(path, 2)) as [string, string];
    // Only `stale` looks written by an older engine: its files are rewritten, then `current`'s
    // drawn again by a store of the test (same key as any engine of this version).
    makeTablesStale(path);
    const store = openStore(join(path, 'cuelab.sqlite'));
    const { keepStudyTablesCurrent } = await import('../../src/main/engine/reports');
    await keepStudyTablesCurrent(store, current);
    store.close();
    expect(staleNow(path)).toEqual([stale]);
    const engine = start(path);
    const log = journal(engine);
    let answered: Promise<void> | undefined;
    log.on((event) => {
      if (answered || event.studyId !== stale || event.done !== 1) return;
      answered = (async () => {
        const table = await engine.handlers.reportTable({ studyId: current, table: 'flips' });
        log.entries.push(`table ${table.name}`);
      })();
    });
    expect(await engine.warmTables()).toBe(1);
    await answered;
    const served = log.entries.findIndex((entry) => entry === 'table flips');
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThan(finalIndex(log.entries, stale));
    expect(staleNow(path)).toEqual([]);
  });

  it('draws a study that just ended in the worker, publishing its progress', async () => {
    const path = workspace();
    const engine = start(path);
    const store = engineStore(engine);
    const file = suite();
    saveSuite(store, file, 'imported');
    const spec = studySpecSchema.parse({
      name: 'ends in the worker',
      suite: file.id,
      judges: [
        { id: 'j', provider: 'synthetic', model: 'synthetic', persona: 'deferential-frontier' },
      ],
      reps: 2,
    });
    const studyId = createStudy(store, spec, file.items);
    const log = journal(engine);
    const folder = persistedTablesDir(store.path);
    log.on((event) => {
      if (event.done !== 1) return;
      // The engine's thread is free while the worker draws: it answers, and the files the
      // worker writes are not all there yet.
      log.entries.push(`health ${(engine.handlers.health({}) as { status: string }).status}`);
    });
    engine.startRunner({ concurrency: 2, studyIds: [studyId] });
    expect(await engine.whenRunnerIdle()).toBeNull();
    const events = log.entries.filter(isEvent);
    // Two reps of the uncued control and two of the cued arm.
    expect(events[0]).toMatchObject({ studyId, done: 0, total: TABLE_NAMES.length, reps: 4 });
    expect(events.at(-1)).toMatchObject({ studyId, done: TABLE_NAMES.length, step: 'done' });
    expect(log.entries.indexOf('health ok')).toBeLessThan(finalIndex(log.entries, studyId));
    expect(readdirSync(folder)).toHaveLength(2);
    expect(staleNow(path)).toEqual([]);
  });

  it('warms a stale study on start; a table asked for meanwhile waits for the drawing', async () => {
    const path = workspace();
    const [studyId] = (await finishedStudies(path, 1)) as [string];
    makeTablesStale(path);
    expect(staleNow(path)).toEqual([studyId]);
    const engine = start(path);
    const log = journal(engine);
    let asked: Promise<void> | undefined;
    log.on((event) => {
      if (asked || event.done !== 0) return;
      asked = (async () => {
        const table = await engine.handlers.reportTable({ studyId, table: 'severity' });
        log.entries.push(`table ${table.name}`);
      })();
    });
    expect(await engine.warmTables()).toBe(1);
    await asked;
    const events = log.entries.filter(isEvent);
    expect(events.map((event) => event.done)).toEqual(
      Array.from({ length: TABLE_NAMES.length + 1 }, (_, index) => index),
    );
    const reps = (await engine.handlers.reportTable({ studyId, table: 'flips' })).reps;
    expect(events.every((event) => event.reps === reps && event.studyId === studyId)).toBe(true);
    // Served from what the drawing persisted, after it ended.
    expect(log.entries.indexOf('table severity')).toBeGreaterThan(finalIndex(log.entries, studyId));
    expect(staleNow(path)).toEqual([]);
    // A second start finds nothing to draw.
    expect(await start(path).warmTables()).toBe(0);
  });

  it('cancels a drawing when the engine closes', async () => {
    const path = workspace();
    const [studyId] = (await finishedStudies(path, 1)) as [string];
    rmSync(persistedTablesDir(join(path, 'cuelab.sqlite')), { recursive: true, force: true });
    const engine = createEngine({ path, source: 'flag' });
    const log = journal(engine);
    log.on((event) => {
      if (event.done === 0) engine.close();
    });
    expect(await engine.warmTables()).toBe(0);
    // Nothing after the close: no last event, no error event.
    expect(log.entries.filter(isEvent)).toHaveLength(1);
    expect(finalIndex(log.entries, studyId)).toBe(-1);
  });

  it('names the study and the table when drawing fails in the worker', async () => {
    const path = workspace();
    const [studyId] = (await finishedStudies(path, 1)) as [string];
    rmSync(persistedTablesDir(join(path, 'cuelab.sqlite')), { recursive: true, force: true });
    const database = openStore(join(path, 'cuelab.sqlite'));
    const rep = database.db
      .prepare<[string], { id: string }>('SELECT id FROM judge_reps WHERE study_id = ? LIMIT 1')
      .get(studyId)?.id;
    database.db.prepare(`UPDATE judge_reps SET condition_json = '{"dim' WHERE id = ?`).run(rep);
    database.close();
    const engine = start(path);
    const log = journal(engine);
    const result = await dispatchLabCall(engine.handlers, 'reportTable', {
      studyId,
      table: 'accuracy',
    });
    if (result.ok) throw new Error('a table was drawn from a damaged row');
    expect(result.error.code).toBe('store_unreadable');
    expect(result.error.message).toContain(
      `Drawing the accuracy table of study "bundle study" (${studyId}) failed`,
    );
    expect(result.error.message).toContain(`judge_reps row`);
    expect(result.error.message).toContain(`condition_json: not valid JSON`);
    // The warm pass says it in the study's event, and goes on.
    expect(await engine.warmTables()).toBe(0);
    const failed = log.entries.filter(isEvent).at(-1);
    expect(failed?.error).toContain(`study "bundle study" (${studyId})`);
    expect(failed?.error).toContain('condition_json: not valid JSON');
    expect(existsSync(persistedTablesDir(join(path, 'cuelab.sqlite')))).toBe(false);
  });
});
