/**
 * A Terminal-Bench or Harbor task's container as its own folder describes it: the Dockerfile
 * with the files its COPY and ADD read (`environment.buildContext`, so the image builds here as
 * it did for the agent), the workdir the Dockerfile's last WORKDIR sets, and the limits of its
 * definition (cpus, memory, pids, network; storage is shown but Docker here has no disk quota).
 */
import { posix } from 'node:path';
import type { ContainerResources, EnvironmentSpec } from '../../../../shared/suite-format';
import { ImportProblem, type TaskFolder } from './types';

/** Most bytes a task's build context may carry in an item (before base64). */
export const maxBuildContextBytes = 16 * 1024 * 1024;

/** What a task's own files define, besides its image: read by the harness, not the build. */
const definitionFiles = /^(task\.ya?ml|task\.toml|instruction\.md|docker-compose\.ya?ml)$/;

/** The workdir when a Dockerfile sets none: Terminal-Bench's base images work in /app. */
export const terminalBenchWorkdir = '/app';

/** Limits of a task beyond what `resources` holds: shown on the Import screen. */
export interface TaskLimits {
  resources?: ContainerResources;
  /** Whether the agent's container had a network (`allow_internet`); absent when not said. */
  network?: boolean;
  /** The disk the task asked for, in MiB: not enforced by the Docker backend. */
  storageMb?: number;
}

/**
 * The files under `under` (the Dockerfile's folder: '' for Terminal-Bench 1, 'environment' for
 * Harbor) as a build context, without graders' files, the task's definition files or the
 * Dockerfile itself. Refused (the run is skipped, saying why) beyond `maxBuildContextBytes`.
 */
export function buildContextOf(task: TaskFolder, under: string): Record<string, string> {
  const prefix = under ? `${under}/` : '';
  const context: Record<string, string> = {};
  let total = 0;
  for (const path of task.files()) {
    if (!path.startsWith(prefix)) continue;
    const inside = path.slice(prefix.length);
    if (inside === 'Dockerfile' || (!under && definitionFiles.test(inside))) continue;
    const bytes = task.readBytes(path);
    if (!bytes) continue;
    total += bytes.length;
    if (total > maxBuildContextBytes) {
      throw new ImportProblem(
        task.label,
        `the task's build context (${prefix || 'the task folder'}) is larger than ` +
          `${maxBuildContextBytes / (1024 * 1024)} MiB; an item carries at most that`,
      );
    }
    context[inside] = bytes.toString('base64');
  }
  return context;
}

/**
 * The folder the Dockerfile's last WORKDIR sets (a relative one is taken from the one before);
 * undefined when it sets none or names a variable that only a build knows.
 */
export function dockerfileWorkdir(dockerfile: string): string | undefined {
  let workdir: string | undefined;
  const lines = dockerfile.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const line of lines) {
    // The instruction, then its argument trimmed: no lazy group before `\s*$`, which is
    // quadratic on a long run of spaces inside a stranger's Dockerfile line.
    const instruction = /^\s*WORKDIR\s/i.exec(line);
    if (!instruction) continue;
    let value = line.slice(instruction[0].length).trim();
    if (!value || /[\n\r\u2028\u2029]/.test(value)) continue;
    if (/^\[/.test(value)) {
      let first: unknown;
      try {
        first = (JSON.parse(value) as unknown[])[0];
      } catch {
        return undefined;
      }
      if (typeof first !== 'string') return undefined;
      value = first;
    }
    value = value.replace(/^["']|["']$/g, '');
    if (!value || value.includes('$')) return undefined;
    workdir = posix.normalize(value.startsWith('/') ? value : posix.join(workdir ?? '/', value));
  }
  return workdir && workdir.length > 1 ? workdir.replace(/\/$/, '') : workdir;
}

/** The environment fields a task's Dockerfile gives an item (build context and workdir). */
export function dockerfileEnvironment(
  task: TaskFolder,
  dockerfile: string,
  under: string,
): Partial<EnvironmentSpec> {
  const buildContext = buildContextOf(task, under);
  return {
    dockerfile,
    ...(Object.keys(buildContext).length ? { buildContext } : {}),
    workdir: dockerfileWorkdir(dockerfile) ?? terminalBenchWorkdir,
  };
}

/** An item's `resources` and `network` from a task's limits. */
export function limitFields(limits: TaskLimits): Partial<EnvironmentSpec> {
  return {
    ...(limits.resources && Object.keys(limits.resources).length
      ? { resources: limits.resources }
      : {}),
    ...(limits.network !== undefined ? { network: limits.network } : {}),
  };
}
