/**
 * The raw side of part (a): the same container and commands straight through dockerode, with
 * nothing of the harness: create+start, each command as one exec read with demuxStream plus the
 * inspect that yields its exit code, then remove.
 */
import type Docker from 'dockerode';
import type DockerModem from 'docker-modem';
import { Writable } from 'node:stream';
import { containerLabels } from '../src/main/engine/environments/docker/client';
import {
  containerHostConfig,
  keepAliveCommand,
} from '../src/main/engine/environments/docker/item-settings';
import type { PreparedItem } from '../src/main/engine/environments/docker/prepare';
import { execInContainer } from '../src/main/engine/environments/docker/exec';
import { findBaseImage } from '../src/main/engine/environments/docker/bootstrap';
import { probeDocker } from '../src/main/engine/environments/docker-status';
import { now, rounded, summarize, type Summary } from './measure';

class Sink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

async function rawExec(
  container: Docker.Container,
  command: string,
  prepared: PreparedItem,
): Promise<void> {
  const exec = await container.exec({
    Cmd: ['sh', '-c', command],
    AttachStdout: true,
    AttachStderr: true,
    User: prepared.settings.user,
    WorkingDir: prepared.settings.workdir,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout = new Sink();
  const stderr = new Sink();
  (container.modem as DockerModem).demuxStream(stream, stdout, stderr);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  const info = await exec.inspect();
  if (info.ExitCode !== 0) throw new Error(`raw exec "${command}" exited ${String(info.ExitCode)}`);
}

/** One raw rep's timings, in ms. */
export interface RawSample {
  total: number;
  createStart: number;
  execs: number;
  remove: number;
  perExec: number[];
}

async function startContainer(docker: Docker, prepared: PreparedItem): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: prepared.image,
    Cmd: keepAliveCommand,
    User: prepared.settings.user,
    WorkingDir: prepared.settings.workdir,
    Labels: containerLabels(prepared.itemId, 'rep'),
    HostConfig: containerHostConfig(prepared.settings),
  });
  try {
    await container.start();
  } catch (error) {
    await container.remove({ force: true, v: true });
    throw error;
  }
  return container;
}

/** One command three ways, ms each: where the harness's per-call cost comes from. */
export interface ExecBreakdown {
  /** `sh -c command` exec, demuxed, one inspect. */
  rawMs: Summary;
  /** The engine's `execInContainer` (pid wrapper, output caps, exit-code inspect), no `timeout`. */
  engineWithoutTimeoutMs: Summary;
  /** The same under GNU `timeout -s KILL`, as the harness runs it when the image has it. */
  engineMs: Summary;
  useTimeoutCommand: boolean;
}

/** Runs each command raw and through the engine's exec, interleaved, in one container. */
export async function execBreakdown(
  docker: Docker,
  prepared: PreparedItem,
  commands: readonly string[],
  rounds: number,
): Promise<ExecBreakdown> {
  const container = await startContainer(docker, prepared);
  const samples = { raw: [] as number[], plain: [] as number[], timeout: [] as number[] };
  const engine = (command: string, useTimeoutCommand: boolean) =>
    execInContainer(container, ['sh', '-c', command], {
      user: prepared.settings.user,
      workdir: prepared.settings.workdir,
      timeoutMs: 30_000,
      maxOutputBytes: 16_384,
      useTimeoutCommand,
    });
  try {
    for (let round = 0; round < rounds; round += 1) {
      const command = commands[round % commands.length] ?? 'true';
      let started = now();
      await rawExec(container, command, prepared);
      samples.raw.push(now() - started);
      started = now();
      await engine(command, false);
      samples.plain.push(now() - started);
      started = now();
      await engine(command, prepared.tools.timeout);
      samples.timeout.push(now() - started);
    }
  } finally {
    await container.remove({ force: true, v: true });
  }
  return {
    rawMs: rounded(summarize(samples.raw)),
    engineWithoutTimeoutMs: rounded(summarize(samples.plain)),
    engineMs: rounded(summarize(samples.timeout)),
    useTimeoutCommand: prepared.tools.timeout,
  };
}

/** Runs `commands` (cycled to `calls` execs) in a fresh container from `prepared`'s snapshot. */
export async function rawRep(
  docker: Docker,
  prepared: PreparedItem,
  commands: readonly string[],
  calls: number,
): Promise<RawSample> {
  const started = now();
  const container = await startContainer(docker, prepared);
  const runningAt = now();
  const perExec: number[] = [];
  let execsDoneAt = runningAt;
  try {
    for (let call = 0; call < calls; call += 1) {
      const execStarted = now();
      await rawExec(container, commands[call % commands.length] ?? 'true', prepared);
      perExec.push(now() - execStarted);
    }
    execsDoneAt = now();
  } finally {
    await container.remove({ force: true, v: true });
  }
  const removedAt = now();
  return {
    total: removedAt - started,
    createStart: runningAt - started,
    execs: execsDoneAt - runningAt,
    remove: removedAt - execsDoneAt,
    perExec,
  };
}

/** A Docker part that could not run here, why, and the fix. */
export interface DockerPartSkipped {
  status: 'skipped';
  reason: string;
  fix: string;
}

/** Why a Docker part cannot run here (Docker down, no base image) and the fix; null when it can. */
export async function dockerPartSkip(docker: Docker): Promise<DockerPartSkipped | null> {
  const status = await probeDocker(3000, docker);
  if (!status.available) {
    const reason = status.problem ?? 'Docker is not reachable.';
    return { status: 'skipped', reason, fix: status.fix ?? 'Start Docker.' };
  }
  if (await findBaseImage(docker)) return null;
  return {
    status: 'skipped',
    reason: 'The CueLab base image is not built on this machine.',
    fix: 'node bin/cuelab.js env bootstrap   (once, about a minute, needs root and debootstrap)',
  };
}
