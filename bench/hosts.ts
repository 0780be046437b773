/**
 * Part (h): study throughput with one Docker engine vs two. The second engine is a dockerd this
 * bench starts on the same machine (its own data root, reached over tcp like a remote host), so
 * both engines share this machine's cores: the ratio measures how well the pool spreads reps and
 * what placement costs, not a second machine's extra CPU. Each engine is capped at the same
 * number of containers; with two engines the pool may run twice as many reps at once. Items need
 * a shell (Docker), the judge makes two calls per rep against the fake provider in its own
 * process. A warm-up study first makes each item's snapshot on each engine, so the measured
 * studies time reps only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseImageTag } from '../src/main/engine/environments/docker/bootstrap';
import { findImage } from '../src/main/engine/environments/docker/images';
import { prepareItem } from '../src/main/engine/environments/docker/prepare';
import { shipImage } from '../src/main/engine/environments/hosts/ship-image';
import { createStudy } from '../src/main/engine/runner/create-study';
import { StudyRunner } from '../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../src/main/engine/runner/workspace-deps';
import { openStore, type Store } from '../src/main/engine/store/database';
import { removeDockerHost, saveDockerHost } from '../src/main/engine/store/docker-hosts';
import { listSuiteItems, saveSuite } from '../src/main/engine/store/suite-items';
import { parseSuite } from '../src/main/engine/suites/load';
import { studySpecSchema } from '../src/shared/study-spec';
import Docker from 'dockerode';
import { startSecondDocker } from '../test/helpers/second-docker';
import { startFakeServerProcess } from './fake-server-process';
import { now, round } from './measure';
import { columns, notRun, type PartOutcome } from './print';

/** One configuration's run. */
export interface HostsLevel {
  engines: number;
  containersPerEngine: number;
  reps: number;
  failedReps: number;
  wallSeconds: number;
  repsPerMinute: number;
  /** Reps each engine ran. */
  repsByHost: Record<string, number>;
}

/** Part (h)'s result. */
export type HostsResult =
  | { status: 'skipped'; reason: string }
  | {
      status: 'ok';
      latencyMs: number;
      items: number;
      one: HostsLevel;
      two: HostsLevel;
      /** two.repsPerMinute ÷ one.repsPerMinute (2 would be perfect spreading). */
      ratio: number;
    };

const suiteId = 'bench-hosts';

function suite(items: number) {
  return parseSuite(
    JSON.stringify({
      id: suiteId,
      name: 'Bench: Docker hosts',
      description: 'Shell items for the one-vs-two engines bench.',
      items: Array.from({ length: items }, (_, index) => ({
        id: `h-${index + 1}`,
        dataset: 'bench',
        substrate: 'filesystem',
        task: 'Write the report.',
        trajectory: [
          { role: 'user', content: 'Write the report.' },
          { role: 'assistant', content: 'Done.' },
        ],
        environment: { shell: true, files: { 'report.md': `# Report ${index + 1}\n` } },
        gold: 'pass',
      })),
    }),
    'bench-hosts.json',
  );
}

async function runStudy(
  store: Store,
  url: string,
  reps: number,
  concurrency: number,
): Promise<{ level: Omit<HostsLevel, 'engines' | 'containersPerEngine'> }> {
  const spec = studySpecSchema.parse({
    name: `hosts bench ×${concurrency}`,
    suite: suiteId,
    judges: [{ id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: url }],
    reps,
    arms: { cues: [] },
    concurrency: { total: concurrency, containers: concurrency },
  });
  const studyId = createStudy(store, spec, listSuiteItems(store, suiteId));
  const deps = workspaceRunnerDeps(store, {
    env: { ANTHROPIC_API_KEY: 'bench' },
    trust: { endpoints: [url], keyEnvNames: [] },
  });
  const runner = new StudyRunner(deps, { concurrency, studyIds: [studyId], pollMs: 20 });
  const started = now();
  runner.start();
  await runner.whenIdle();
  await runner.stop();
  const wallSeconds = (now() - started) / 1000;
  const counts = deps.hostPool.counts();
  deps.hostPool.close();
  const row = store.db
    .prepare(
      `SELECT SUM(state = 'done') AS done, SUM(state = 'failed') AS failed FROM jobs WHERE study_id = ?`,
    )
    .get(studyId) as { done: number; failed: number };
  return {
    level: {
      reps: row.done,
      failedReps: row.failed,
      wallSeconds: round(wallSeconds, 2),
      repsPerMinute: round((row.done / wallSeconds) * 60),
      repsByHost: Object.fromEntries(
        Object.entries(counts).map(([id, count]) => [id, count.repsDone]),
      ),
    },
  };
}

/** Runs part (h). */
export async function benchHosts(
  log: (line: string) => void,
  latencyMs: number,
  options: { items?: number; containersPerEngine?: number } = {},
): Promise<HostsResult> {
  const items = options.items ?? 16;
  const perEngine = options.containersPerEngine ?? 4;
  if (!(await findImage(new Docker(), baseImageTag()).catch(() => undefined))) {
    return { status: 'skipped', reason: 'the base image is not built (cuelab env bootstrap)' };
  }
  const second = await startSecondDocker();
  if (!second) return { status: 'skipped', reason: 'a second dockerd cannot start here (root?)' };
  const server = await startFakeServerProcess(0);
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-hosts-'));
  const store = openStore(join(dir, 'cuelab.sqlite'));
  try {
    saveSuite(store, suite(items), 'imported');
    saveDockerHost(store, { id: 'local', url: 'local', maxContainers: perEngine });
    saveDockerHost(store, { id: 'second', url: second.url, maxContainers: perEngine });
    log(`  warm-up: the base image copied to the second engine, item snapshots on both`);
    const local = new Docker();
    await shipImage({ source: local, target: second.docker, image: baseImageTag() });
    for (const item of listSuiteItems(store, suiteId)) {
      for (const docker of [local, second.docker]) {
        await prepareItem(item.environment, item.id, { docker });
      }
    }
    await server.setLatency(latencyMs);

    log(`  two engines × ${perEngine} containers, ${items} items × 3 reps`);
    const two = (await runStudy(store, server.url, 3, perEngine * 2)).level;
    log(`    ${two.repsPerMinute} reps/min (${JSON.stringify(two.repsByHost)})`);
    removeDockerHost(store, 'second');
    log(`  one engine × ${perEngine} containers, ${items} items × 3 reps`);
    const one = (await runStudy(store, server.url, 3, perEngine)).level;
    log(`    ${one.repsPerMinute} reps/min`);
    return {
      status: 'ok',
      latencyMs,
      items,
      one: { engines: 1, containersPerEngine: perEngine, ...one },
      two: { engines: 2, containersPerEngine: perEngine, ...two },
      ratio: round(two.repsPerMinute / one.repsPerMinute, 2),
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await server.close();
    await second.dispose();
  }
}

/** Part (h)'s block of the summary. */
export function printHosts(outcome: PartOutcome<HostsResult>): string[] {
  const title = '(h) one Docker engine vs two (the second a dockerd on this machine)';
  if (outcome.status !== 'ok') return [title, ...notRun(outcome)];
  const h = outcome.result;
  if (h.status === 'skipped') return [title, `  skipped: ${h.reason}`];
  return [
    `${title}, ${h.items} items × 3 reps, ${h.latencyMs} ms provider latency`,
    ...columns([
      ['  engines', 'containers each', 'reps', 'failed', 'wall', 'reps/min', 'reps by engine'],
      ...[h.one, h.two].map((level) => [
        `  ${level.engines}`,
        level.containersPerEngine,
        level.reps,
        level.failedReps,
        `${level.wallSeconds.toFixed(1)} s`,
        level.repsPerMinute.toFixed(1),
        Object.entries(level.repsByHost)
          .map(([id, reps]) => `${id} ${reps}`)
          .join(', '),
      ]),
    ]),
    `  two engines ÷ one: ${h.ratio.toFixed(2)}× (2.00 = perfect spreading; both engines share this machine's cores)`,
  ];
}
