/**
 * Part (p): a rep's container made while the previous rep runs. Reps run back to back on one
 * real item snapshot, each one command (`cat README.md`), three ways, in blocks that take
 * turns so drifting load hits all three alike:
 *   raw    dockerode create + start + exec + remove per rep, nothing else (the floor);
 *   cold   CueLab's provisioning (`provisionEnvironment`), exec and dispose, nothing made ahead;
 *   ahead  the same with the runner's pre-creation: each rep takes the container made during
 *          the rep before it, and the next one is made while it runs.
 * Blocks, not alternating reps: a raw rep between two CueLab reps would give the container
 * made ahead a free rep's time to get ready. A judge rep takes seconds (model calls), so its
 * successor is always ready; here the next rep starts at once, the least favourable case.
 */
import type Docker from 'dockerode';
import { defaultToolLimits } from '../src/main/engine/contract/environment';
import { createDockerClient } from '../src/main/engine/environments/docker/client';
import { prepareItem, type PreparedItem } from '../src/main/engine/environments/docker/prepare';
import { RepPrewarmer, type PrewarmTarget } from '../src/main/engine/environments/docker/prewarm';
import { provisionEnvironment } from '../src/main/engine/environments/provision';
import { environmentSpecSchema, type EnvironmentSpec } from '../src/shared/suite-format';
import { now, round, rounded, summarize, type Summary } from './measure';
import { dockerPartSkip, rawRep, type DockerPartSkipped } from './raw-docker';

/** What part (p) measured, or why it was skipped. */
export type PrewarmResult =
  | DockerPartSkipped
  | {
      status: 'ok';
      repsEach: number;
      /** dockerode create + start + exec + remove, per rep. */
      rawFloorMs: Summary;
      /** CueLab provision + exec + dispose, nothing made ahead. */
      coldMs: Summary;
      /** The same with each rep's container made during the rep before. */
      aheadMs: Summary;
      /** Median ahead ÷ median raw floor (target < 1). */
      ratio: number;
      /** Containers made ahead, and how many a rep took. */
      made: { created: number; taken: number };
    };

const command = 'cat README.md';
const rounds = 4;

async function cueLabRep(
  item: { id: string; environment: EnvironmentSpec },
  docker: Docker,
  prewarm?: PrewarmTarget,
): Promise<number> {
  const started = now();
  const provisioned = await provisionEnvironment(item.environment, item, {
    backend: 'docker',
    docker,
    ...(prewarm ? { prewarm } : {}),
  });
  try {
    const result = await provisioned.environment.exec(command, defaultToolLimits);
    if (result.exitCode !== 0) throw new Error(`"${command}" exited ${String(result.exitCode)}`);
  } finally {
    await provisioned.dispose();
  }
  return now() - started;
}

/** Runs part (p): `reps` reps of each kind, in `rounds` turns. */
export async function benchPrewarm(
  reps: number,
  log: (line: string) => void,
): Promise<PrewarmResult> {
  const docker = createDockerClient();
  const skip = await dockerPartSkip(docker);
  if (skip) return skip;
  const nonce = `${process.pid}-${Date.now()}`;
  const item = {
    id: `bench-prewarm-${nonce}`,
    // Unique per run, so the snapshot is made fresh and removed afterwards.
    environment: environmentSpecSchema.parse({
      shell: true,
      files: { 'README.md': '# Report builder\n', 'notes/run.txt': nonce },
    }),
  };
  const warm = new RepPrewarmer();
  const target: PrewarmTarget = { warm, host: 'local' };
  let prepared: PreparedItem | undefined;
  try {
    prepared = await prepareItem(item.environment, item.id, { docker });
    const ready = prepared;
    // Warm-up of every path (first connections, the snapshot's layers in the page cache).
    await rawRep(docker, ready, [command], 1);
    await cueLabRep(item, docker);
    const samples = { raw: [] as number[], cold: [] as number[], ahead: [] as number[] };
    const perRound = Math.max(1, Math.ceil(reps / rounds));
    for (let turn = 0; turn < rounds; turn += 1) {
      for (let rep = 0; rep < perRound; rep += 1)
        samples.raw.push((await rawRep(docker, ready, [command], 1)).total);
      for (let rep = 0; rep < perRound; rep += 1) samples.cold.push(await cueLabRep(item, docker));
      // The block's first rep makes the first container ahead and is not counted.
      await cueLabRep(item, docker, target);
      for (let rep = 0; rep < perRound; rep += 1)
        samples.ahead.push(await cueLabRep(item, docker, target));
      // Nothing made ahead crosses into the next block.
      await warm.drain();
      log(
        `  round ${turn + 1}/${rounds}: raw ${medianMs(samples.raw)}, cold ${medianMs(samples.cold)}, ` +
          `ahead ${medianMs(samples.ahead)} (medians so far)`,
      );
    }
    const rawFloorMs = summarize(samples.raw);
    const aheadMs = summarize(samples.ahead);
    const { created, taken } = warm.counts();
    return {
      status: 'ok',
      repsEach: perRound * rounds,
      rawFloorMs: rounded(rawFloorMs),
      coldMs: rounded(summarize(samples.cold)),
      aheadMs: rounded(aheadMs),
      ratio: round(aheadMs.median / rawFloorMs.median, 3),
      made: { created, taken },
    };
  } finally {
    await warm.drain();
    if (prepared)
      await docker
        .getImage(prepared.image)
        .remove({ force: true })
        .catch(() => undefined);
  }
}

function medianMs(values: readonly number[]): string {
  return `${Math.round(summarize(values).median)} ms`;
}

/** Part (p)'s block for the summary. */
export function printPrewarm(result: PrewarmResult): string[] {
  const title = '(p) next rep container made while the current rep runs (real container)';
  if (result.status === 'skipped') return [title, `  skipped: ${result.reason}`];
  const line = (name: string, summary: Summary) =>
    `  ${name.padEnd(44)} ${Math.round(summary.median)} ms median, ${Math.round(summary.p90)} ms p90`;
  return [
    `${title}, ${result.repsEach} reps each, one exec per rep`,
    line('raw floor: create + start + exec + remove', result.rawFloorMs),
    line('CueLab rep, nothing made ahead', result.coldMs),
    line('CueLab rep, container made ahead', result.aheadMs),
    `  ratio made-ahead ÷ raw floor: ${result.ratio.toFixed(3)} (target < 1: ` +
      `${result.ratio < 1 ? 'pass' : 'MISSED'}); ${result.made.taken} of ` +
      `${result.made.created} containers made ahead were taken`,
  ];
}
