/**
 * MCPMark state found the other ways MCPMark keeps it: the category's `<category>.zip` (as
 * MCPMark downloads it) instead of an unpacked folder, and a run's own dump beside it.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRuns } from '../../src/main/engine/suites/import';
import { makeTempDir } from '../helpers/temp-dir';
import { deflatedZip } from '../../src/main/engine/export/inspect-eval';
import { postgresOf } from '../../src/shared/substrates/postgres';

const fixture = join(__dirname, '..', 'fixtures', 'import', 'mcpmark');
let dir: ReturnType<typeof makeTempDir>;

beforeEach(() => {
  dir = makeTempDir();
  cpSync(fixture, dir.path, { recursive: true });
});

afterEach(() => dir.remove());

describe('MCPMark states beyond the fixture layout', () => {
  it("replays onto the category's zip, its top folder dropped, as onto the unpacked folder", () => {
    const folder = join(dir.path, 'test_environments', 'file_property');
    const unpacked = importRuns({ path: fixture, format: 'mcpmark' }).suite.items;
    const names = readdirSync(folder);
    const zip = deflatedZip([
      ['file_property/', Buffer.alloc(0)],
      ...names.map((name): [string, Buffer] => [
        `file_property/${name}`,
        readFileSync(join(folder, name)),
      ]),
    ]);
    rmSync(folder, { recursive: true });
    writeFileSync(join(dir.path, 'test_environments', 'file_property.zip'), zip);
    const zipped = importRuns({ path: dir.path, format: 'mcpmark' }).suite.items;
    for (const item of zipped.filter((entry) => entry.substrate === 'filesystem')) {
      const twin = unpacked.find((entry) => entry.id === item.id)!;
      expect(item.environment).toEqual(twin.environment);
      expect(item.note).toContain('test_environments/file_property.zip with 1 file operation');
    }
  });

  it("takes a run's own state dump over the initial database and replays nothing", () => {
    const run = join(dir.path, 'results/demo/gpt-5__postgres/run-1/chinook__update_employee_info');
    writeFileSync(join(run, 'state.sql'), 'CREATE TABLE "Employee" ("EmployeeId" integer);\n');
    const item = importRuns({ path: dir.path, format: 'mcpmark' }).suite.items.find(
      (entry) => entry.substrate === 'postgres',
    )!;
    expect(postgresOf(item.environment)?.sql).toBe(
      'CREATE TABLE "Employee" ("EmployeeId" integer);\n',
    );
    expect(item.environment.setup).toBeUndefined();
    expect(item.note).toBe(
      "end state: the run's own dump (results/demo/gpt-5__postgres/run-1/chinook__update_employee_info/state.sql)",
    );
  });

  it('says why a filesystem run stays trajectory-only when a call cannot be replayed', () => {
    const run = join(
      dir.path,
      'results/demo/gpt-5__filesystem/run-1/file_property__largest_rename',
    );
    const messages = JSON.parse(readFileSync(join(run, 'messages.json'), 'utf8')) as unknown[];
    messages.splice(2, 0, {
      arguments: JSON.stringify({ path: '/tmp/mcpmark/file_property/bear.jpg' }),
      call_id: 'call_x',
      name: 'delete_file',
      type: 'function_call',
    });
    writeFileSync(join(run, 'messages.json'), JSON.stringify(messages));
    const item = importRuns({ path: dir.path, format: 'mcpmark' }).suite.items.find(
      (entry) => entry.provenance?.agent === 'gpt-5' && entry.substrate === 'filesystem',
    )!;
    expect(item.note).toBe(
      "trajectory only: the agent's file operations cannot be replayed: cannot replay tool delete_file (call call_x)",
    );
    expect(item.environment.files).toEqual({});
  });
});
