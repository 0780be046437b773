/**
 * A damaged workspace is named as such: real SQLite files with a real synthetic study,
 * damaged by the test the way a disk, a sync tool or a hand edit damages them, then opened
 * through `cuelab status` / `cuelab report` in this process. Each refusal says what is wrong
 * and where, and leaves the file exactly as it found it.
 */
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { dispatchLabCall } from '../../src/main/engine/api/dispatch';
import { createEngine } from '../../src/main/engine/engine';
import { makeTempDir } from '../helpers/temp-dir';
import { KEY, runStudy } from '../helpers/bundle-study';
import { engineStore } from '../../src/main/engine/engine-store';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';

const dirs: ReturnType<typeof makeTempDir>[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  while (dirs.length) dirs.pop()?.remove();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A workspace folder holding one finished synthetic study (6 reps), closed. */
async function workspaceWithStudy(): Promise<{ path: string; database: string; studyId: string }> {
  vi.stubEnv('ANTHROPIC_API_KEY', KEY);
  const dir = makeTempDir();
  dirs.push(dir);
  const engine = createEngine({ path: dir.path, source: 'flag' });
  const studyId = await runStudy(engineStore(engine));
  engine.close();
  return { path: dir.path, database: join(dir.path, 'cuelab.sqlite'), studyId };
}

function digest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Edits the closed database with foreign keys off (as a hand edit or another tool would). */
function edit(database: string, sql: string, ...params: unknown[]): void {
  const db = new Database(database);
  db.pragma('foreign_keys = OFF');
  db.prepare(sql).run(...params);
  db.close();
}

function firstRep(database: string, studyId: string): string {
  const db = new Database(database, { readonly: true });
  const id = db
    .prepare('SELECT id FROM judge_reps WHERE study_id = ? ORDER BY id')
    .pluck()
    .get(studyId);
  db.close();
  return String(id);
}

describe('the open check', () => {
  it('refuses a file with random bytes in its middle, naming the damage, leaving it as it is', async () => {
    const { path, database } = await workspaceWithStudy();
    const size = statSync(database).size;
    expect(size).toBeGreaterThan(64 * 1024);
    const fd = openSync(database, 'r+');
    writeSync(fd, randomBytes(16 * 1024), 0, 16 * 1024, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const damaged = digest(database);
    const status = await cli(['status', '--workspace', path]);
    expect(status.code).not.toBe(0);
    // Where the bytes land decides which check meets them first: the schema read or quick_check.
    expect(status.err).toMatch(
      /workspace database .* is damaged( \(database disk image is malformed\)|: SQLite's integrity check found)/,
    );
    expect(digest(database)).toBe(damaged);
  });

  it('finds random bytes in a page only quick_check reads (status used to exit 0)', async () => {
    const { path, database } = await workspaceWithStudy();
    // A leaf page of the transcripts: listing studies never reads it.
    const db = new Database(database, { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const page = db
      .prepare(
        `SELECT pageno FROM dbstat WHERE name = 'judge_message_rows' AND pagetype = 'leaf' LIMIT 1`,
      )
      .pluck()
      .get() as number;
    db.close();
    const fd = openSync(database, 'r+');
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (page - 1) * pageSize);
    closeSync(fd);
    const damaged = digest(database);
    const status = await cli(['status', '--workspace', path]);
    expect(status.err).toMatch(/is damaged: SQLite's integrity check found/);
    expect(status.code).not.toBe(0);
    expect(digest(database)).toBe(damaged);
  });

  it('refuses a 0-byte database where the workspace had one, and creates nothing', async () => {
    const { path, database } = await workspaceWithStudy();
    truncateSync(database, 0);
    const status = await cli(['status', '--workspace', path]);
    expect(status.code).not.toBe(0);
    expect(status.err).toMatch(/is empty \(0 bytes\), but this workspace had one/);
    expect(statSync(database).size).toBe(0);
  });

  it("refuses another workspace's database put in its place", async () => {
    const mine = await workspaceWithStudy();
    const other = await workspaceWithStudy();
    copyFileSync(other.database, mine.database);
    const status = await cli(['status', '--workspace', mine.path]);
    expect(status.code).not.toBe(0);
    expect(status.err).toMatch(/is not the one this workspace had/);
  });

  it('opens a new workspace and records its identity beside it', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    // A read command never creates a workspace; importing a suite does.
    const suite = join(__dirname, '..', 'fixtures', 'mini-suite.json');
    const created = await cli(['suite', 'import', suite, '--workspace', dir.path]);
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(existsSync(join(dir.path, 'cuelab.sqlite.marker.json'))).toBe(true);
    expect((await cli(['status', '--workspace', dir.path])).code).toBe(0);
  });
});

describe('damaged rows', () => {
  it('names a JSON column that is not JSON at open: table, row and field', async () => {
    const { path, database, studyId } = await workspaceWithStudy();
    const rep = firstRep(database, studyId);
    edit(database, `UPDATE judge_reps SET verdict_json = '{"outcome": "pa' WHERE id = ?`, rep);
    const detail = await cli(['status', studyId, '--workspace', path]);
    expect(detail.code).not.toBe(0);
    expect(detail.err).toContain(`judge_reps row ${rep}: verdict_json: not valid JSON`);
  });

  it('lists every study when one has a damaged row, marking that one with the reason', async () => {
    const { path, database, studyId } = await workspaceWithStudy();
    const engine = createEngine({ path, source: 'flag' });
    const healthy = await runStudy(engineStore(engine));
    engine.close();
    const rep = firstRep(database, studyId);
    edit(database, `UPDATE judge_reps SET verdict_json = '{"outcome": "pa' WHERE id = ?`, rep);
    const list = await cli(['status', '--workspace', path]);
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    const lines = list.out.split('\n');
    expect(lines).toHaveLength(2);
    const marked = lines.find((line) => line.startsWith(studyId.slice(0, 8)));
    expect(marked).toContain(`[damaged: judge_reps row ${rep}: verdict_json: not valid JSON]`);
    const other = lines.find((line) => line.startsWith(healthy.slice(0, 8)));
    expect(other).toBeDefined();
    expect(other).not.toContain('damaged');
    expect((await cli(['status', healthy, '--workspace', path])).code).toBe(0);
  });

  it('names a JSON column a report query meets, instead of an internal error', async () => {
    const { path, database, studyId } = await workspaceWithStudy();
    const rep = firstRep(database, studyId);
    // The runner persisted the study's tables when it completed; without them the report is
    // built from the rows, as for a study no runner of this version finished.
    rmSync(persistedTablesDir(database), { recursive: true, force: true });
    const engine = createEngine({ path, source: 'flag' });
    try {
      // Damaged after the open check, as in a workspace too large to scan at open.
      engineStore(engine)
        .db.prepare(`UPDATE judge_reps SET condition_json = '{"dim' WHERE id = ?`)
        .run(rep);
      const result = await dispatchLabCall(engine.handlers, 'formatReport', {
        studyId,
        table: 'flips',
        format: 'md',
      });
      if (result.ok) throw new Error('the report was made from a damaged row');
      expect(result.error.code).toBe('store_unreadable');
      expect(result.error.message).toContain(
        `judge_reps row ${rep}: condition_json: not valid JSON`,
      );
    } finally {
      engine.close();
    }
  });

  it('status reports done jobs whose rep is gone, and exits non-zero', async () => {
    const { path, database, studyId } = await workspaceWithStudy();
    const healthy = await cli(['status', studyId, '--workspace', path]);
    expect(healthy.code).toBe(0);
    expect(healthy.out).not.toMatch(/damaged/);
    edit(database, 'DELETE FROM judge_reps WHERE id = ?', firstRep(database, studyId));
    const status = await cli(['status', studyId, '--workspace', path]);
    expect(status.out).toMatch(/damaged: 1 jobs are marked done but their rep is missing/);
    expect(status.code).toBe(1);
    // The advice names a command that does it: the completed study runs that job again.
    const advice = new RegExp(`run them again: cuelab run --resume ${studyId}$`, 'm');
    expect(status.out).toMatch(advice);
    const resumed = await cli(['run', '--resume', studyId, '--workspace', path]);
    expect(resumed.err).toBe('');
    expect(resumed.code).toBe(0);
    const healed = await cli(['status', studyId, '--workspace', path]);
    expect(healed.out).not.toMatch(/damaged/);
    expect(healed.code).toBe(0);
    const db = new Database(database, { readonly: true });
    const reps = db
      .prepare(
        `SELECT count(*) FROM jobs j JOIN judge_reps r ON r.id = j.rep_id WHERE j.study_id = ? AND j.state = 'done'`,
      )
      .pluck()
      .get(studyId);
    db.close();
    expect(reps).toBe(6);
    // With every rep stored, a completed study has nothing to resume.
    const again = await cli(['run', '--resume', studyId, '--workspace', path]);
    expect(again.code).not.toBe(0);
    expect(again.err).toMatch(/completed, with every rep stored; there is nothing to resume/);
  });
});
