/**
 * `cuelab suite import` on real public runs of each format (test/fixtures/import, see its
 * PROVENANCE.md): the right items, gold labels, message counts, environments and provenance;
 * flagged and broken runs skipped with reasons; nothing stored when nothing imports.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/main/engine/export/bundle-export';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { openStore } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { importRuns } from '../../src/main/engine/suites/import';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';
import { postgresOf } from '../../src/shared/substrates/postgres';

const fixtures = join(__dirname, '..', 'fixtures', 'import');
const fixture = (...parts: string[]) => join(fixtures, ...parts);
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('mini-swe-agent runs of SWE-bench', () => {
  const run = fixture('mini-swe-agent', 'run');
  const outcome = importRuns({ path: run, format: 'auto' });
  const byId = new Map(outcome.suite.items.map((item) => [item.id, item]));

  it('imports both runs with their report.json labels, wrapped or not', () => {
    expect([...byId.keys()].sort()).toEqual(['django__django-13660', 'django__django-14752']);
    expect(byId.get('django__django-14752')?.gold).toBe('pass'); // {iid: {resolved: true}}
    expect(byId.get('django__django-13660')?.gold).toBe('fail'); // {resolved: false}, unwrapped
    expect(outcome.skipped).toEqual([]);
  });

  it('keeps every message but the final exit record, with tool calls and results paired', () => {
    for (const [id, item] of byId) {
      const source = json(join(run, 'trajs', id, `${id}.traj.json`));
      const messages = source.messages as { role: string }[];
      expect(item.trajectory.length).toBe(messages.filter((m) => m.role !== 'exit').length);
      const calls = item.trajectory.flatMap((m) => m.tool_calls ?? []).map((call) => call.id);
      const results = item.trajectory.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
      expect(results.every((id) => calls.includes(id!))).toBe(true);
      expect(item.task).toContain('<pr_description>');
    }
  });

  it('runs in the instance eval image with the model patch applied in /testbed', () => {
    const item = byId.get('django__django-14752')!;
    expect(item.environment.image).toBe(
      'swebench/sweb.eval.x86_64.django_1776_django-14752:latest',
    );
    expect(item.environment.workdir).toBe('/testbed');
    const patch = (json(join(run, 'preds.json'))['django__django-14752'] as { model_patch: string })
      .model_patch;
    expect(item.environment.setup?.[0]).toContain(patch.trim());
    expect(item.environment.setup?.[0]).toContain('git apply');
  });

  it('records provenance: source file, format and its sha256', () => {
    const item = byId.get('django__django-13660')!;
    const source = 'trajs/django__django-13660/django__django-13660.traj.json';
    expect(item.provenance).toMatchObject({
      source,
      format: 'mini-swe-agent',
      instance: 'django__django-13660',
    });
    expect(item.provenance?.sha256).toBe(sha(join(run, source)));
    expect(item.provenance?.agent).toBe('deepseek/deepseek-chat');
    expect(item.render).toEqual({ toolOutputLimit: 4000 });
  });
});

describe('SWE-agent runs', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => dir.remove());

  it('reads legacy and function-calling trajectories; unlabelled without a report, no image made up', () => {
    const outcome = importRuns({ path: fixture('swe-agent'), format: 'swe-agent' });
    const pydicom = outcome.suite.items.find((item) => item.id === 'pydicom__pydicom-1458')!;
    const source = json(fixture('swe-agent', 'gpt4-dev-easy', 'pydicom__pydicom-1458.traj'));
    const history = source.history as { is_demo?: boolean }[];
    expect(pydicom.trajectory.length).toBe(history.filter((m) => m.is_demo !== true).length);
    expect(pydicom.gold).toBeUndefined();
    // A 0.x trajectory names no image: the judge gets the trajectory, not a guessed container.
    expect(pydicom.environment.image).toBeUndefined();
    expect(pydicom.task).toContain('ISSUE:');
    const demo = outcome.suite.items.find((item) => item.id === 'function_calling_simple')!;
    expect(
      demo.trajectory.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name),
    ).toContain('find_file');
    expect(demo.environment.image).toBeUndefined();
  });

  it('labels a run from a report.json beside it', () => {
    cpSync(fixture('swe-agent', 'gpt4-dev-easy'), dir.path, { recursive: true });
    // Hand-made: the public sample has no report; SWE-bench writes logs/<iid>/report.json.
    mkdirSync(join(dir.path, 'logs', 'pydicom__pydicom-1458'), { recursive: true });
    writeFileSync(
      join(dir.path, 'logs', 'pydicom__pydicom-1458', 'report.json'),
      JSON.stringify({ 'pydicom__pydicom-1458': { resolved: true } }),
    );
    const outcome = importRuns({ path: dir.path, format: 'auto' });
    expect(outcome.suite.items[0]?.gold).toBe('pass');
  });
});

describe('Terminal-Bench 1 runs', () => {
  it('imports a trial with its is_resolved label and the task Dockerfile; flags one whose agent never ran', () => {
    const outcome = importRuns({ path: fixture('terminal-bench'), format: 'auto' });
    const hello = outcome.suite.items.find((item) => item.id === 'hello-world.1-of-5')!;
    expect(hello.gold).toBe('pass');
    expect(hello.environment.dockerfile).toContain('FROM cuelab/base');
    expect(hello.task).toContain('hello.txt');
    expect(hello.trajectory[0]).toMatchObject({ role: 'user' });
    const skipped = outcome.skipped.find((entry) => entry.path.includes('cron-broken-network'));
    expect(skipped?.reason).toMatch(/agent-never-ran: .*openhands.*No such file or directory/);
    expect(outcome.suite.items.some((item) => item.id.includes('cron'))).toBe(false);
  });

  it('imports a flagged run when asked, unlabelled (is_resolved null) and marked', () => {
    const outcome = importRuns({
      path: fixture('terminal-bench', 'run'),
      format: 'terminal-bench',
      keepFlagged: true,
    });
    const cron = outcome.suite.items.find((item) => item.id.includes('cron-broken-network'))!;
    expect(cron.gold).toBeUndefined();
    expect(cron.provenance?.flags?.[0]).toMatch(/^agent-never-ran/);
    expect(cron.environment.shell).toBe(false); // no task folder given: trajectory only
    const keys = cron.trajectory
      .flatMap((m) => m.tool_calls ?? [])
      .map((c) => c.function.arguments);
    expect(keys.join('\n')).toContain('openhands');
    expect(keys.join('\n')).not.toContain('run-tests.sh');
  });
});

describe('Harbor / Terminal-Bench 2 jobs', () => {
  const outcome = importRuns({ path: fixture('harbor'), format: 'auto' });
  const byId = (id: string) => outcome.suite.items.find((item) => item.id === id)!;

  it('reads the ATIF trajectory, the reward and the task folder', () => {
    expect(outcome.suite.items.map((item) => item.id).sort()).toEqual([
      'fix-permissions__Xr4Tq9m',
      'hello-world__AbC123',
    ]);
    expect(outcome.skipped).toEqual([]);
    const item = byId('hello-world__AbC123');
    expect(item).toMatchObject({ gold: 'pass', substrate: 'terminal' });
    expect(item.trajectory.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The agent's hidden reasoning_content is not what it showed: it stays out.
    expect(JSON.stringify(item.trajectory)).not.toContain('a single echo is enough');
    expect(item.environment.dockerfile).toContain('FROM cuelab/base');
    expect(item.provenance?.agent).toBe('terminus-2 / anthropic/claude-sonnet-4');
  });

  it("uses the task's prebuilt docker_image, content-part messages, and says the trial raised", () => {
    const item = byId('fix-permissions__Xr4Tq9m');
    expect(item.environment).toMatchObject({
      image: 'cuelab-test/tb2-fix-permissions:20251104',
      workdir: '/app',
      shell: true,
    });
    expect(item.environment.dockerfile).toBeUndefined();
    expect(item.gold).toBe('fail');
    expect(item.note).toBe('the trial raised AgentTimeoutError');
    expect(item.trajectory[2]?.content).toBe(
      'total 4\n-rw-r--r-- 1 root root 61 Nov  4 18:01 deploy.sh',
    );
    expect(item.trajectory.at(-1)).toMatchObject({ role: 'tool', content: '' });
  });
});

describe('MCPMark runs', () => {
  const outcome = importRuns({ path: fixture('mcpmark'), format: 'mcpmark', name: 'MCPMark demo' });
  const filesystem = outcome.suite.items.filter((item) => item.substrate === 'filesystem');

  it('reads the Agents SDK items and the Anthropic dialect with the verification result as gold', () => {
    expect(outcome.suite.id).toBe('mcpmark-demo');
    expect(outcome.skipped).toEqual([]);
    expect(filesystem.map((item) => item.gold).sort()).toEqual(['fail', 'pass']);
    const sdk = filesystem.find((item) => item.provenance?.agent === 'gpt-5')!;
    // One assistant turn holds both calls of that turn; outputs lose their MCP text wrapper.
    expect(sdk.trajectory.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(sdk.trajectory[1]?.content).toBe("I'll list the directory with sizes first.");
    expect(sdk.trajectory[2]?.content).toMatch(/^\[FILE\] bear\.jpg/);
    expect(sdk.trajectory[3]?.tool_calls?.map((c) => c.function.name)).toEqual([
      'move_file',
      'write_file',
    ]);
    for (const item of filesystem) {
      expect(item.task).toContain('Rename the largest JPEG'); // description.md of the task
      expect(item).toMatchObject({ taxonomy: 'aj-filesystem', dataset: 'mcpmark-filesystem' });
    }
  });

  it('replays the file operations onto the initial state; a failed call changes nothing', () => {
    const sdk = filesystem.find((item) => item.provenance?.agent === 'gpt-5')!;
    const anthropic = filesystem.find((item) => item.provenance?.agent === 'claude-sonnet')!;
    expect(sdk.note).toContain('test_environments/file_property with 1 file operation');
    expect(Object.keys(sdk.environment.files).sort()).toEqual([
      'random_file_1.txt',
      'random_file_2.txt',
      'random_file_3.txt',
    ]);
    // The media files are bytes, not text: written by setup, sg.jpg under its new name.
    const written = (sdk.environment.setup ?? []).filter((step) => step.includes('base64 -d'));
    expect(written.map((step) => /> (\S+) &&/.exec(step)?.[1]).sort()).toEqual([
      'bear.jpg',
      'bridge.jpg',
      'bus.MOV',
      'largest.jpg',
      'road.MOV',
    ]);
    expect((anthropic.environment.setup ?? []).join('\n')).toContain('> sg.jpg &&');
    expect((anthropic.environment.setup ?? []).join('\n')).not.toContain('> bridge.jpg &&');
  });

  it('maps a postgres run onto the Postgres substrate: initial database + replayed SQL', () => {
    const item = outcome.suite.items.find((entry) => entry.substrate === 'postgres')!;
    expect(item).toMatchObject({
      id: 'gpt-5__postgres.chinook__update_employee_info',
      gold: 'pass',
      dataset: 'mcpmark-postgres',
      taxonomy: 'aj-postgres',
    });
    expect(item.task).toContain('Andrew Adams (EmployeeId = 1): set his title');
    expect(postgresOf(item.environment)).toMatchObject({
      database: 'chinook',
      access: 'read-only',
    });
    expect(postgresOf(item.environment)?.sql).toContain('COPY public."Employee"');
    const setup = item.environment.setup ?? [];
    // The unquoted UPDATE failed in the run and is not replayed; the other four statements are.
    expect(setup).toHaveLength(4);
    expect(setup.join('\n')).not.toContain('UPDATE Employee SET');
    expect(setup[1]).toContain(`UPDATE "Employee" SET "Title" = 'CEO' WHERE "EmployeeId" = 1;`);
    expect(item.note).toContain("postgres_state/chinook.sql with the agent's 4 successful SQL");
  });

  it('keeps a postgres run trajectory-only, saying why, when its initial database is absent', () => {
    const run = 'results/demo/gpt-5__postgres/run-1/chinook__update_employee_info';
    const only = importRuns({ path: join(fixture('mcpmark'), run), format: 'mcpmark' });
    expect(only.suite.items[0]?.note).toBe(
      "trajectory only: the task's initial database was not found (postgres_state/chinook.backup " +
        'or .sql beside the run or the tasks folder)',
    );
    const [first] = only.suite.items;
    expect(first && postgresOf(first.environment)).toBeUndefined();
  });
});

describe('Inspect AI logs', () => {
  it('reads .eval zips and .json logs, one item per sample, the score as gold', () => {
    const outcome = importRuns({ path: fixture('inspect'), format: 'inspect' });
    const fromEval = outcome.suite.items.filter(
      (item) => item.provenance?.source === 'log_read_sample.eval',
    );
    expect(fromEval).toHaveLength(1);
    expect(fromEval[0]).toMatchObject({ gold: 'pass' });
    expect(fromEval[0]?.trajectory.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    const fromJson = outcome.suite.items.filter((item) =>
      item.provenance?.source.endsWith('popularity.json'),
    );
    expect(fromJson).toHaveLength(3);
    expect(outcome.skipped.some((entry) => entry.path.startsWith('log_tool_call_error.json'))).toBe(
      true,
    );
  });
});

describe('provenance in study bundles', () => {
  it('travels with each imported item a study judges', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    try {
      const outcome = importRuns({
        path: fixture('harbor'),
        format: 'harbor',
        name: 'harbor runs',
      });
      saveSuite(store, outcome.suite, 'imported');
      const spec = studySpecSchema.parse({
        name: 'provenance',
        suite: outcome.suite.id,
        judges: [
          { id: 'sim', provider: 'synthetic', model: 'sim', persona: 'deferential-frontier' },
        ],
      });
      const studyId = createStudy(store, spec, outcome.suite.items);
      const rows = buildBundle(store, studyId).tables.suiteItems as { body_json: string }[];
      const bodies = rows.map(
        (row) => JSON.parse(row.body_json) as { provenance: { source: string; sha256: string } },
      );
      const body = bodies.find((entry) => entry.provenance.source.includes('hello-world'))!;
      expect(body.provenance.source).toBe('job/hello-world__AbC123/agent/trajectory.json');
      expect(body.provenance.sha256).toBe(
        sha(fixture('harbor', 'job', 'hello-world__AbC123', 'agent', 'trajectory.json')),
      );
    } finally {
      store.close();
      dir.remove();
    }
  });
});

describe('names from a stranger’s files', () => {
  it('never reach a task folder outside the one given', () => {
    const dir = makeTempDir();
    try {
      cpSync(
        fixture('harbor', 'job', 'hello-world__AbC123'),
        join(dir.path, 'hello-world__AbC123'),
        {
          recursive: true,
        },
      );
      const result = join(dir.path, 'hello-world__AbC123', 'result.json');
      writeFileSync(result, JSON.stringify({ ...json(result), task_name: '../hello-world' }));
      const outcome = importRuns({
        path: dir.path,
        format: 'harbor',
        tasksDir: fixture('harbor', 'tasks', 'elsewhere'),
      });
      expect(outcome.suite.items[0]?.environment.dockerfile).toBeUndefined();
      expect(outcome.suite.items[0]?.note).toMatch(/trajectory only/);
    } finally {
      dir.remove();
    }
  });
});
