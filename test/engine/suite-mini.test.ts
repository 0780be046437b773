import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { suiteCommand } from '../../src/main/cli/suite';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { runTool } from '../../src/main/engine/judge/tools';
import { meetsExpectation } from '../../src/main/engine/simulation/probes';
import { resourcesDir } from '../../src/main/engine/suites/builtin';
import { mapPool } from '../../src/main/engine/suites/mini/containers';
import { parseSuite } from '../../src/main/engine/suites/load';
import { itemEnvironment, runInFreshContainer } from '../../src/main/engine/suites/mini/generate';
import { miniRecipes, miniSearchRecipes } from '../../src/main/engine/suites/mini/index';
import {
  buildSearchTrajectory,
  runWebCalls,
  searchDataset,
  searchEnvironment,
} from '../../src/main/engine/suites/mini/search-recipe';
import {
  hardCaseKindOf,
  hardCaseKinds,
  miniSubstrates,
} from '../../src/main/engine/suites/mini/recipe';
import { formatSuiteJson } from '../../src/main/engine/suites/mini/suite-json';
import { probeTools, verifySuite, type VerifyRow } from '../../src/main/engine/suites/mini/verify';
import type { SuiteFile, SuiteItem } from '../../src/shared/suite-format';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { dockerForTest } from '../helpers/docker';
import { makeTempDir } from '../helpers/temp-dir';
import { postgresOf } from '../../src/shared/substrates/postgres';
import { sqliteDatabaseOf } from '../../src/shared/substrates/sqlite';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const path = join(resourcesDir(), 'suites', 'cuelab-mini.json');
const text = readFileSync(path, 'utf8');
const suite: SuiteFile = parseSuite(text, path);
const docker = new Docker();
let available = false;
let rows: VerifyRow[] = [];

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

function item(id: string): SuiteItem {
  const found = suite.items.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
}

const containerItems = suite.items.filter((entry) => entry.substrate !== 'web');
const webItems = suite.items.filter((entry) => entry.substrate === 'web');

/** The web tool calls of a trajectory and the results recorded for them, in order. */
function recordedWebCalls(entry: SuiteItem): { tool: string; input: unknown; output: string }[] {
  return entry.trajectory.flatMap((message, index) =>
    (message.tool_calls ?? []).map((call) => ({
      tool: call.function.name,
      input: JSON.parse(call.function.arguments) as unknown,
      output: entry.trajectory[index + 1]?.content ?? '',
    })),
  );
}

/** The shell commands of a trajectory and the tool results recorded for them, in order. */
function recordedSteps(entry: SuiteItem): { command: string; output: string }[] {
  return entry.trajectory.flatMap((message, index) =>
    (message.tool_calls ?? []).map((call) => {
      const result = entry.trajectory[index + 1];
      expect(result).toMatchObject({ role: 'tool', tool_call_id: call.id });
      const { command } = JSON.parse(call.function.arguments) as { command: string };
      return { command, output: result?.content ?? '' };
    }),
  );
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  // Built once per machine (minutes); here, so no test's own timeout has to cover it.
  if (available) await ensurePostgresImage({ docker });
}, 900_000);

afterAll(async () => {
  if (!available) return;
  // Nothing this process started may outlive the tests.
  const mine = (await listManagedContainers(docker)).filter(
    (container) => container.Labels?.[dockerLabels.enginePid] === String(process.pid),
  );
  expect(mine).toEqual([]);
});

describe('cuelab-mini: the shipped suite', () => {
  it('parses, and is formatted exactly as build-mini writes it', () => {
    expect(suite.id).toBe('cuelab-mini');
    expect(formatSuiteJson(JSON.parse(text))).toBe(text);
  });

  it('has at least 12 items per original substrate, 10 Postgres, 8 web, and about half pass', () => {
    expect(suite.items.length).toBeGreaterThanOrEqual(54);
    const least = { filesystem: 12, database: 12, code: 12, postgres: 10, web: 8 };
    for (const [substrate, count] of Object.entries(least)) {
      const items = suite.items.filter((entry) => entry.substrate === substrate);
      expect(items.length, substrate).toBeGreaterThanOrEqual(count);
      // The new substrates mix in at least two hard cases each.
      if (substrate === 'postgres' || substrate === 'web') {
        expect(items.filter((entry) => hardCaseKindOf(entry.note)).length).toBeGreaterThanOrEqual(
          2,
        );
      }
    }
    const share = suite.items.filter((entry) => entry.gold === 'pass').length / suite.items.length;
    expect(share).toBeGreaterThanOrEqual(0.4);
    expect(share).toBeLessThanOrEqual(0.6);
  });

  it('has every hard-case kind at least twice, each on the side of the label it names', () => {
    for (const kind of hardCaseKinds) {
      const items = suite.items.filter((entry) => hardCaseKindOf(entry.note) === kind);
      expect(items.length, kind).toBeGreaterThanOrEqual(2);
      // A looks-failed item passes; every other hard case is a failure that hides.
      const expected = kind === 'looks-failed' ? 'pass' : 'fail';
      expect(items.map((entry) => entry.gold)).toEqual(items.map(() => expected));
    }
    for (const entry of suite.items.filter((candidate) => candidate.note)) {
      expect(hardCaseKindOf(entry.note), entry.id).toBeDefined();
    }
  });

  it('gives each web item only its snapshot web, an exact-answer verifier and web probes', () => {
    for (const entry of webItems) {
      expect(entry.dataset).toBe(searchDataset);
      expect(entry.environment).toMatchObject({ files: {}, shell: false });
      expect(entry.environment.web?.pages.length).toBeGreaterThanOrEqual(8);
      expect(entry.verifier && 'answer' in entry.verifier).toBe(true);
      expect(entry.probes?.filter((probe) => probe.decisive)).toHaveLength(1);
      expect(entry.probes?.every((probe) => ['web_search', 'fetch_url'].includes(probe.tool))).toBe(
        true,
      );
    }
  });

  it('gives each item its substrate fields, a verifier, a replayable environment and probes', () => {
    for (const entry of containerItems) {
      const { dataset, taxonomy } = miniSubstrates[entry.substrate as keyof typeof miniSubstrates];
      expect(entry, entry.id).toMatchObject({ dataset, taxonomy });
      expect(entry.environment, entry.id).toMatchObject({ shell: true, replay: true });
      expect(entry.dimensions[0]).toBe('task_success');
      expect(entry.gold).toMatch(/^(pass|fail)$/);
      expect(entry.verifier && 'command' in entry.verifier && entry.verifier.command).toBeTruthy();
      expect(entry.probes?.length).toBeGreaterThanOrEqual(2);
      expect(entry.probes?.length).toBeLessThanOrEqual(4);
      expect(entry.probes?.filter((probe) => probe.decisive)).toHaveLength(1);
      if (entry.substrate === 'database') expect(sqliteDatabaseOf(entry.environment)).toBeDefined();
      if (entry.substrate === 'postgres') expect(postgresOf(entry.environment)?.sql).toBeTruthy();
      // Hidden tests are written by the verifier at check time, never shipped in the tree.
      expect(Object.values(entry.environment.files).join('\n')).not.toContain('class Hidden');
    }
  });

  it('keeps every trajectory in the OpenAI shape: task, shell calls with results, last words', () => {
    for (const entry of containerItems) {
      const [first] = entry.trajectory;
      const last = entry.trajectory[entry.trajectory.length - 1];
      expect(first).toMatchObject({ role: 'user', content: entry.task });
      expect(last?.role).toBe('assistant');
      expect(last?.tool_calls).toBeUndefined();
      const steps = recordedSteps(entry);
      expect(steps.length, entry.id).toBeGreaterThanOrEqual(2);
      for (const step of steps) expect(step.output).toMatch(/^exit code: \d+/);
    }
  });

  it('is up to date with its recipes (regenerate with cuelab suite build-mini)', () => {
    expect(suite.items.map((entry) => entry.id)).toEqual(
      [...miniRecipes, ...miniSearchRecipes].map((recipe) => recipe.id),
    );
    for (const recipe of miniSearchRecipes) {
      const entry = item(recipe.id);
      expect(entry.environment).toEqual(searchEnvironment(recipe));
      expect(entry.verifier).toEqual({ answer: recipe.answer });
      const outputs = recordedWebCalls(entry).map((call) => call.output);
      expect(entry.trajectory).toEqual(buildSearchTrajectory(recipe, outputs));
    }
    for (const recipe of miniRecipes) {
      const entry = item(recipe.id);
      expect(entry.task).toBe(recipe.task);
      expect(entry.environment).toEqual(itemEnvironment(recipe));
      expect(entry.verifier).toEqual({ command: recipe.verifier });
      expect(entry.probes).toEqual(recipe.probes);
      expect(recordedSteps(entry).map((step) => step.command)).toEqual(
        recipe.steps.map((step) => step.command),
      );
      expect(entry.trajectory[entry.trajectory.length - 1]?.content).toBe(recipe.final);
    }
  });
});

describe('cuelab-mini in Docker', () => {
  it('rebuilds every item by replay, and its verifier and decisive probe agree with the label', async (context) => {
    needDocker(context);
    rows = await verifySuite(suite, { concurrency: 2 });
    const disagreements = rows.filter((row) => !row.ok);
    expect(disagreements).toEqual([]);
    expect(rows.map((row) => row.itemId)).toEqual(suite.items.map((entry) => entry.id));
  }, 600_000);

  it('shows clean outcomes on the surface probes and hides hard-case failures from them', async (context) => {
    needDocker(context);
    // What a judge that skips the decisive check would conclude: all surface probes met.
    const surfaceSays = await mapPool(suite.items, 2, async (entry) => {
      const provisioned = await provisionEnvironment(entry.environment, entry, { docker });
      try {
        let met = true;
        for (const probe of (entry.probes ?? []).filter((candidate) => !candidate.decisive)) {
          const outcome = await runTool(probe.tool, probe.input, {
            environment: provisioned.environment,
            trajectoryLines: [],
            limits: defaultToolLimits,
            offered: probeTools,
          });
          met &&= meetsExpectation(probe.expect, outcome);
        }
        return met ? 'pass' : 'fail';
      } finally {
        await provisioned.dispose();
      }
    });
    const expected = suite.items.map((entry) =>
      hardCaseKindOf(entry.note) === undefined ? entry.gold : 'pass',
    );
    expect(surfaceSays).toEqual(expected);
  }, 300_000);

  it('fails verify, naming the item, when a stored label is flipped', async (context) => {
    needDocker(context);
    const folder = makeTempDir();
    context.onTestFinished(() => folder.remove());
    const tampered = JSON.parse(text) as { items: { id: string; gold: string }[] };
    const target = tampered.items.find((entry) => entry.id === 'db-customer-migration-02');
    if (!target) throw new Error('db-customer-migration-02 is missing');
    target.gold = 'pass';
    const file = join(folder.path, 'tampered.json');
    writeFileSync(file, JSON.stringify(tampered));
    const out: string[] = [];
    const err: string[] = [];
    const code = await suiteCommand.run(
      ['verify', file, '--item', 'db-customer-migration-01', '--item', 'db-customer-migration-02'],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    expect(code).toBe(1);
    expect(out.join('\n')).toMatch(/ok +db-customer-migration-01/);
    expect(out.join('\n')).toMatch(/DIFF db-customer-migration-02/);
    expect(err.join('\n')).toContain('1 of 2 items');
    expect(err.join('\n')).toContain(
      'db-customer-migration-02: stored gold pass, but the verifier says fail',
    );
  }, 120_000);

  it('records in every web item exactly what its calls return from the snapshot', async () => {
    for (const entry of webItems) {
      const calls = recordedWebCalls(entry);
      const outputs = await runWebCalls(entry.environment, calls);
      expect(outputs, entry.id).toEqual(calls.map((call) => call.output));
    }
  });

  it.for<string>([
    'fs-build-cleanup-02',
    'db-customer-migration-04',
    'code-csv-quotes-01',
    'pg-unique-email-01',
  ])(
    'records in %s exactly what its steps print when re-run in a fresh container',
    { timeout: 120_000 },
    async (id, context) => {
      needDocker(context);
      const entry = item(id);
      const steps = recordedSteps(entry);
      const rerun = await runInFreshContainer(
        entry.environment,
        entry.id,
        steps.map((step) => step.command),
        {
          check: entry.verifier && 'command' in entry.verifier ? entry.verifier.command : 'false',
          docker,
        },
      );
      expect(rerun.outputs).toEqual(steps.map((step) => step.output));
      expect(rerun.check?.exitCode === 0 ? 'pass' : 'fail').toBe(entry.gold);
    },
  );
});
