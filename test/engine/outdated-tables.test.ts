/**
 * Out-of-date report tables served only when asked (`current: 'stale-ok'`), on real SQLite
 * workspaces, the real runner with a synthetic judge and the real reports worker: a study whose
 * last reps landed after its tables were persisted (a run interrupted by quitting) answers the
 * window at once with the table as drawn, marked with the reps it covers, starts the drawing,
 * and answers the current table once it ends; every exact path (the default request, CSV, the
 * printed report, the report card) waits for the current table; an older engine's file is
 * never served out of date. Orderings are asserted, never times.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import type { LabEventData, LabEventMessage } from '../../src/shared/lab-api';
import { runStudy } from '../helpers/bundle-study';
import { landReps, persistBeforeLastReps } from '../helpers/interrupted-study';
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

const HELD_BACK = 2;

/** A finished study whose last `HELD_BACK` reps landed after its tables were persisted. */
async function interruptedStudy(): Promise<{ path: string; studyId: string; reps: number }> {
  const dir = makeTempDir();
  dirs.push(dir);
  const engine = createEngine({ path: dir.path, source: 'flag' });
  const studyId = await runStudy(engineStore(engine));
  engine.close();
  const { held, reps } = await persistBeforeLastReps(dir.path, studyId, HELD_BACK);
  landReps(dir.path, held);
  return { path: dir.path, studyId, reps };
}

function start(path: string): Engine {
  const engine = createEngine({ path, source: 'flag' });
  engines.push(engine);
  return engine;
}

/** Each `study.tables` event and each mark the test makes, in order. */
function journal(engine: Engine): (TablesEvent | string)[] {
  const entries: (TablesEvent | string)[] = [];
  engine.events.subscribe((message: LabEventMessage) => {
    if (message.stream === 'study.tables') entries.push(message.data);
  });
  return entries;
}

/** Resolves on the study's last `study.tables` event (every table drawn). */
function drawn(engine: Engine, studyId: string): Promise<TablesEvent> {
  return new Promise((resolve) => {
    engine.events.subscribe((message: LabEventMessage) => {
      if (message.stream !== 'study.tables' || message.data.studyId !== studyId) return;
      if (message.data.done === message.data.total || message.data.error) resolve(message.data);
    });
  });
}

const finalIndex = (entries: (TablesEvent | string)[], studyId: string) =>
  entries.findIndex(
    (entry) => typeof entry !== 'string' && entry.studyId === studyId && entry.done === entry.total,
  );

describe('out-of-date report tables', () => {
  it('answers an interrupted study’s table at once, labelled, then the current one', async () => {
    const { path, studyId, reps } = await interruptedStudy();
    const engine = start(path);
    const entries = journal(engine);
    const ended = drawn(engine, studyId);
    const before = Date.now();
    const stale = await engine.handlers.reportTable({
      studyId,
      table: 'flips',
      current: 'stale-ok',
    });
    entries.push('outdated answered');
    expect(stale.outdated).toMatchObject({ drawnFromReps: reps - HELD_BACK, studyReps: reps });
    expect(Date.parse(stale.outdated?.drawnAt ?? '')).toBeLessThanOrEqual(before);
    // A table over the store (labels, majorities) is offered the same way.
    const graded = await engine.handlers.reportTable({
      studyId,
      table: 'graded',
      current: 'stale-ok',
    });
    expect(graded.outdated?.drawnFromReps).toBe(reps - HELD_BACK);

    expect((await ended).error).toBeUndefined();
    // Answered before the drawing it started had its last table.
    expect(entries.indexOf('outdated answered')).toBeLessThan(finalIndex(entries, studyId));
    const current = await engine.handlers.reportTable({
      studyId,
      table: 'flips',
      current: 'stale-ok',
    });
    expect(current.outdated).toBeUndefined();
    expect(current.reps).toBeGreaterThan(stale.reps);
    expect(current).toEqual(await engine.handlers.reportTable({ studyId, table: 'flips' }));
  });

  it('never answers out of date on the exact paths', async () => {
    const { path, studyId } = await interruptedStudy();
    const engine = start(path);
    const stale = await engine.handlers.reportTable({
      studyId,
      table: 'severity',
      current: 'stale-ok',
    });
    expect(stale.outdated).toBeDefined();
    // The default request waits for the drawing the first one started.
    const exact = await engine.handlers.reportTable({ studyId, table: 'severity' });
    expect(exact.outdated).toBeUndefined();
    expect(exact.reps).toBeGreaterThan(stale.reps);
    const json = await engine.handlers.formatReport({ studyId, table: 'severity', format: 'json' });
    expect(JSON.parse(json.text)).toMatchObject({ reps: exact.reps });
    const csv = await engine.handlers.reportCsv({ studyId, table: 'severity' });
    expect(csv.csv).not.toContain('outdated');
    // The report card is never offered out of date: its judges' costs sum every rep.
    const card = await engine.handlers.reportTable({ studyId, table: 'card', current: 'stale-ok' });
    expect(card.outdated).toBeUndefined();
    expect(card.reps).toBe(exact.reps);
  });

  it('waits for the current table rather than serve an older engine’s file', async () => {
    const { path, studyId } = await interruptedStudy();
    const folder = persistedTablesDir(join(path, 'cuelab.sqlite'));
    for (const name of readdirSync(folder)) {
      const file = join(folder, name);
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { writer: string };
      expect(parsed.writer).toMatch(/^\d+\//);
      writeFileSync(file, JSON.stringify({ ...parsed, writer: '1/0.0.1' }));
    }
    const engine = start(path);
    const entries = journal(engine);
    const table = await engine.handlers.reportTable({
      studyId,
      table: 'flips',
      current: 'stale-ok',
    });
    expect(table.outdated).toBeUndefined();
    expect(table).toEqual(await engine.handlers.reportTable({ studyId, table: 'flips' }));
    // Drawn from the rows in the worker: no out-of-date drawing was started for it.
    expect(entries).toEqual([]);
  });
});
