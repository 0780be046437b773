/**
 * The runner's hook on the persisted report tables, on a real SQLite workspace and a real runner
 * (the Anthropic SDK against the local fake model server): when a study ends, its tables are on
 * disk, and a restarted engine serves every table equal to a fresh recount without reading a
 * rep, after the study first ran, after a job was requeued and ran again, and after a label
 * changed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TABLES,
  TABLE_NAMES,
  readStudyRows,
  reportTable,
  type ReportTable,
} from '../../src/main/engine/reports';
import { flipsWithLabels } from '../../src/main/engine/metajudge';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import { holdsStudyRows } from '../../src/main/engine/reports/row-cache';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveLabels } from '../../src/main/engine/store/labels';
import { reopenStudy, studyStatus } from '../../src/main/engine/store/study-state';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createMiniSuiteStudy, runWithFakeServer } from '../helpers/fake-server-run';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';

let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
let path: string;
const open: Store[] = [];

beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  dir = makeTempDir();
  path = join(dir.path, 'cuelab.sqlite');
  server.handle('anthropic', deferentialJudge());
});
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  dir.remove();
});

/** A new engine's view of the workspace: a store of its own, so no cache of another one. */
function engineStart(): Store {
  const store = openStore(path);
  open.push(store);
  return store;
}

function createdStudy(store: Store): string {
  return createMiniSuiteStudy(store, server.url, {
    direction: 'both',
    concurrency: { total: 3, containers: 3 },
  });
}

/** Every table as a fresh engine recounts it: rows read in full, nothing cached or persisted. */
function recount(store: Store, studyId: string): Record<string, ReportTable> {
  return Object.fromEntries(
    TABLE_NAMES.map((name) => {
      const definition = TABLES[name];
      const table =
        'build' in definition
          ? definition.build(readStudyRows(store, studyId))
          : definition.fromStore(store, studyId);
      return [name, table];
    }),
  );
}

/** Every table as an engine serves it (the study header it adds left out). */
function served(store: Store, studyId: string): Record<string, ReportTable> {
  return Object.fromEntries(
    TABLE_NAMES.map((name) => {
      const { study: _study, ...table } = reportTable(store, studyId, name);
      return [name, table];
    }),
  );
}

/** A restarted engine serves every table from disk, equal to a recount made elsewhere. */
function expectServedFromDiskAsRecounted(studyId: string): void {
  const expected = recount(engineStart(), studyId);
  const restarted = engineStart();
  expect(served(restarted, studyId)).toEqual(expected);
  expect(holdsStudyRows(restarted, studyId)).toBe(false);
}

describe("the runner's hook on the persisted report tables", () => {
  it('leaves a finished study on disk: a restart serves every table without reading a rep', async () => {
    const store = engineStart();
    const studyId = createdStudy(store);
    expect(existsSync(persistedTablesDir(path))).toBe(false);
    await runWithFakeServer(store, studyId, server.url);
    expect(readStudyRows(store, studyId).length).toBeGreaterThan(0);
    // Rows read only for the hook are let go: the runner holds no finished study.
    expect(holdsStudyRows(store, studyId)).toBe(false);
    expect(readdirSync(persistedTablesDir(path))).toHaveLength(2);
    expectServedFromDiskAsRecounted(studyId);
  });

  it('leaves a study the runner paused at its cost cap on disk too, as recounted', async () => {
    const store = engineStart();
    const studyId = createMiniSuiteStudy(store, server.url, {
      costCapUsd: 0.000001,
      concurrency: { total: 1, containers: 1 },
    });
    await runWithFakeServer(store, studyId, server.url);
    expect(studyStatus(store, studyId).status).toBe('paused');
    expect(readdirSync(persistedTablesDir(path))).toHaveLength(2);
    expectServedFromDiskAsRecounted(studyId);
  });

  it('never serves a table made before a job was requeued, and is current again once it ran', async () => {
    const store = engineStart();
    const studyId = createdStudy(store);
    await runWithFakeServer(store, studyId, server.url);
    const before = recount(store, studyId);
    const cued = store.db
      .prepare<[string], { id: number }>(
        `SELECT id FROM jobs WHERE study_id = ? AND state = 'done' AND direction <> '' LIMIT 1`,
      )
      .get(studyId);
    store.db
      .prepare(`UPDATE jobs SET state = 'queued', rep_id = NULL, attempts = 0 WHERE id = ?`)
      .run(cued?.id);
    reopenStudy(store, studyId);
    // One rep fewer: what a restart serves now is the recount, not the persisted tables.
    const requeued = recount(engineStart(), studyId);
    expect(requeued.flips?.reps).toBe((before.flips?.reps ?? 0) - 1);
    expect(served(engineStart(), studyId)).toEqual(requeued);
    await runWithFakeServer(store, studyId, server.url);
    expect(recount(store, studyId).flips?.reps).toBe(before.flips?.reps);
    expectServedFromDiskAsRecounted(studyId);
  });

  it('serves the label tables as recounted after a mechanism label changes', async () => {
    const store = engineStart();
    const studyId = createdStudy(store);
    await runWithFakeServer(store, studyId, server.url);
    const cued = store.db
      .prepare<[string], { rep_id: string }>(
        `SELECT rep_id FROM jobs WHERE study_id = ? AND state = 'done' AND direction <> ''`,
      )
      .all(studyId);
    const label = (name: 'over_trust' | 'hallucination') =>
      saveLabels(
        store,
        cued.map(({ rep_id }) => ({ repId: rep_id, source: 'diff' as const, label: name })),
      );
    label('over_trust');
    const first = served(engineStart(), studyId);
    expect(first).toEqual(recount(engineStart(), studyId));
    label('hallucination');
    const relabelled = recount(engineStart(), studyId);
    expect(relabelled.mechanisms).not.toEqual(first.mechanisms);
    expect(served(engineStart(), studyId)).toEqual(relabelled);
  });

  it('serves the fresh label tables after a label is replaced twice within one millisecond', async () => {
    const store = engineStart();
    const studyId = createdStudy(store);
    await runWithFakeServer(store, studyId, server.url);
    const cued = store.db
      .prepare<[string], { rep_id: string }>(
        `SELECT rep_id FROM jobs WHERE study_id = ? AND state = 'done' AND direction <> ''`,
      )
      .all(studyId);
    const label = (repIds: readonly string[], name: 'over_trust' | 'hallucination') =>
      saveLabels(
        store,
        repIds.map((repId) => ({ repId, source: 'diff' as const, label: name })),
      );
    // The relabelled rep must be a harmful flip (only flips count in the mechanism table) and not
    // the newest label row: a harmful flip goes first. The jobs query has no order of its own.
    const harmful = flipsWithLabels(store, studyId).find((flip) => flip.kind === 'harmful');
    expect(harmful).toBeDefined();
    const repIds = [
      harmful?.repId as string,
      ...cued.map(({ rep_id }) => rep_id).filter((id) => id !== harmful?.repId),
    ];
    expect(repIds.length).toBeGreaterThan(1);
    // Both writes carry the same created_at (the clock does not move between them), and the
    // replaced label is not the newest row: neither the count, max(rowid) nor the time moves.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00.000Z') });
    let before: Record<string, ReportTable>;
    try {
      label(repIds, 'over_trust');
      before = served(engineStart(), studyId);
      expect(before).toEqual(recount(engineStart(), studyId));
      label(repIds.slice(0, 1), 'hallucination');
    } finally {
      vi.useRealTimers();
    }
    const relabelled = recount(engineStart(), studyId);
    expect(relabelled.mechanisms).not.toEqual(before.mechanisms);
    // A later engine (a store of its own, no memory of the first) serves the fresh table.
    expect(served(engineStart(), studyId)).toEqual(relabelled);
  });
});
