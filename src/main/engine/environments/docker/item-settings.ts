/**
 * An environment spec's Docker fields with their defaults applied, the agent's shell actions
 * taken from its trajectory for replay, and the container limits they imply.
 */
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import type { Trajectory } from '../../../../shared/trajectory';
import { EngineError } from '../../errors';
import { containerStateOf } from '../../substrates';
import { shellName } from '../../../../shared/substrates/shell';

/** Defaults of the optional Docker fields of an environment spec. */
export const dockerDefaults = {
  workdir: '/workspace',
  /** Non-root; created in the snapshot when the image lacks it. */
  user: 'agent',
  resources: { cpus: 1, memoryMb: 1024, pids: 256 },
  replayTools: [shellName, 'bash', 'execute_bash', 'run_shell_command'],
  /** Per setup or replayed command. */
  setupTimeoutMs: 10 * 60_000,
} as const;

/**
 * How far a suite may loosen the judge's container: the user's setting,
 * never the suite's. By default no root judge, no network, and at most 4 CPUs, 8 GiB and 4096
 * processes; the user raises it in their own environment (`CUELAB_CONTAINER_ALLOW_ROOT=1`,
 * `CUELAB_CONTAINER_ALLOW_NETWORK=1`, `CUELAB_CONTAINER_MAX_CPUS`, `…_MAX_MEMORY_MB`,
 * `…_MAX_PIDS`), which a suite cannot set.
 */
export interface ContainerCap {
  allowRoot: boolean;
  allowNetwork: boolean;
  maxCpus: number;
  maxMemoryMb: number;
  maxPids: number;
}

/** The cap when the user has set nothing. */
export const defaultContainerCap: ContainerCap = {
  allowRoot: false,
  allowNetwork: false,
  maxCpus: 4,
  maxMemoryMb: 8192,
  maxPids: 4096,
};

/**
 * No cap: for describing an item without starting it (`cuelab prompt`, the preview), which
 * needs no container; starting one still checks the user's cap.
 */
export const noContainerCap: ContainerCap = {
  allowRoot: true,
  allowNetwork: true,
  maxCpus: Infinity,
  maxMemoryMb: Infinity,
  maxPids: Infinity,
};

/** Why `spec` cannot start under the user's cap, or undefined when it can. */
export function containerCapProblem(
  spec: EnvironmentSpec,
  trajectory: Trajectory | undefined,
  cap: ContainerCap = containerCapFromEnv(process.env),
): string | undefined {
  try {
    dockerItemSettings(spec, trajectory ?? [], cap);
    return undefined;
  } catch (error) {
    if (error instanceof EngineError) return error.message;
    throw error;
  }
}

/** The cap the user's environment sets (defaults for anything unset or unreadable). */
export function containerCapFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): ContainerCap {
  const number = (name: string, fallback: number) => {
    const value = Number(env[`CUELAB_CONTAINER_${name}`]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    allowRoot: env.CUELAB_CONTAINER_ALLOW_ROOT === '1',
    allowNetwork: env.CUELAB_CONTAINER_ALLOW_NETWORK === '1',
    maxCpus: number('MAX_CPUS', defaultContainerCap.maxCpus),
    maxMemoryMb: number('MAX_MEMORY_MB', defaultContainerCap.maxMemoryMb),
    maxPids: number('MAX_PIDS', defaultContainerCap.maxPids),
  };
}

/** Size of the judge's writable scratch folders (`/tmp`, `/var/tmp`), tmpfs in memory. */
export const scratchTmpfsSize = '256m';

/** The Docker side of one item, every default applied. */
export interface DockerItemSettings {
  workdir: string;
  user: string;
  network: boolean;
  /**
   * The judge's root filesystem is read-only: true when the judge has no shell (its tools only
   * read), so nothing it does can fill the disk. With a shell, writes stay (a judge may run
   * tests that write) and scratch space is capped tmpfs.
   */
  readOnlyRoot: boolean;
  resources: { cpus: number; memoryMb: number; pids: number };
  setup: string[];
  /** The agent's shell commands to replay, in trajectory order (empty unless `replay`). */
  replay: string[];
  /** Sourced by the judge's shell before each command (the spec's `shellInit`). */
  shellInit?: string;
}

/**
 * Applies the defaults to `spec`, and collects replayed commands from `trajectory`. Throws when
 * the spec asks for more than `cap` allows (root, network, limits), naming the setting to raise.
 */
export function dockerItemSettings(
  spec: EnvironmentSpec,
  trajectory: Trajectory | undefined,
  cap: ContainerCap = containerCapFromEnv(process.env),
): DockerItemSettings {
  if (spec.replay && !trajectory) {
    throw new EngineError(
      'bad_request',
      'This environment replays the trajectory, but none was given.',
    );
  }
  const user = spec.user ?? dockerDefaults.user;
  const network = spec.network ?? false;
  const resources = { ...dockerDefaults.resources, ...spec.resources };
  const refuse = (what: string, setting: string) => {
    throw new EngineError(
      'bad_request',
      `environment.${what} is beyond this machine's container cap; the suite cannot raise it ` +
        `(you can, in your own environment: ${setting}).`,
    );
  };
  if (isRootUser(user) && !cap.allowRoot)
    refuse(`user ${user} (root)`, 'CUELAB_CONTAINER_ALLOW_ROOT=1');
  if (network && !cap.allowNetwork) refuse('network: true', 'CUELAB_CONTAINER_ALLOW_NETWORK=1');
  if (resources.cpus > cap.maxCpus)
    refuse(`resources.cpus ${resources.cpus}`, `CUELAB_CONTAINER_MAX_CPUS (now ${cap.maxCpus})`);
  if (resources.memoryMb > cap.maxMemoryMb)
    refuse(
      `resources.memoryMb ${resources.memoryMb}`,
      `CUELAB_CONTAINER_MAX_MEMORY_MB (now ${cap.maxMemoryMb})`,
    );
  if (resources.pids > cap.maxPids)
    refuse(`resources.pids ${resources.pids}`, `CUELAB_CONTAINER_MAX_PIDS (now ${cap.maxPids})`);
  return {
    workdir: spec.workdir ?? dockerDefaults.workdir,
    user,
    network,
    // A shell-less judge cannot write, so its root is read-only; a substrate's process in the
    // container (a PostgreSQL server writes its log and run files) may need a writable root.
    readOnlyRoot: !spec.shell && !containerStateOf(spec)?.writableRoot,
    resources,
    setup: spec.setup ?? [],
    replay:
      spec.replay && trajectory
        ? replayedCommands(trajectory, spec.replayTools ?? dockerDefaults.replayTools)
        : [],
    ...(spec.shellInit ? { shellInit: spec.shellInit } : {}),
  };
}

/**
 * The `command` of every call to one of `tools` in the trajectory, in order. A call whose
 * arguments carry no command is an error: skipping it would silently change the end state.
 */
export function replayedCommands(trajectory: Trajectory, tools: readonly string[]): string[] {
  const commands: string[] = [];
  for (const message of trajectory) {
    for (const call of message.tool_calls ?? []) {
      if (!tools.includes(call.function.name)) continue;
      const command = commandOf(call.function.arguments);
      if (command === undefined) {
        throw new EngineError(
          'bad_request',
          `Cannot replay tool call ${call.id} (${call.function.name}): its arguments have no ` +
            '"command" (or "cmd") string.',
        );
      }
      commands.push(command);
    }
  }
  return commands;
}

function commandOf(rawArguments: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments);
  } catch {
    return undefined;
  }
  if (typeof parsed === 'string') return parsed;
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const record = parsed as Record<string, unknown>;
  const command = record.command ?? record.cmd;
  if (typeof command === 'string' && command.trim()) return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    return command.map(shellQuote).join(' ');
  }
  return undefined;
}

/** Quotes one word for `sh`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Capabilities root needs in the prepare container for setup, chown and creating the user. */
const prepareCapabilities = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'SETUID', 'SETGID'];

/**
 * Container limits and isolation for `settings`: no network unless allowed, no privilege gain,
 * every capability dropped (the prepare container, where setup runs as root, keeps the few
 * file-ownership ones it needs), scratch folders as size-capped tmpfs, and a read-only root
 * for a judge without a shell. Disk quotas (StorageOpt size) need overlay2 on xfs with pquota,
 * which Docker's default ext4 setup lacks, so they are not relied on; tmpfs pages count
 * against the memory limit.
 */
export function containerHostConfig(
  settings: DockerItemSettings,
  role: 'prepare' | 'rep' = 'rep',
): Docker.HostConfig {
  const memory = settings.resources.memoryMb * 1024 * 1024;
  const rootJudge = role === 'rep' && isRootUser(settings.user);
  const scratch = ['/tmp', '/var/tmp'].filter(
    (folder) => settings.workdir !== folder && !settings.workdir.startsWith(`${folder}/`),
  );
  return {
    NetworkMode: settings.network ? 'bridge' : 'none',
    NanoCpus: Math.round(settings.resources.cpus * 1e9),
    Memory: memory,
    MemorySwap: memory,
    PidsLimit: settings.resources.pids,
    SecurityOpt: ['no-new-privileges'],
    CapDrop: ['ALL'],
    ...(role === 'prepare' || rootJudge ? { CapAdd: prepareCapabilities } : {}),
    ReadonlyRootfs: role === 'rep' && settings.readOnlyRoot,
    ...(role === 'rep'
      ? {
          Tmpfs: Object.fromEntries(
            scratch.map((folder) => [folder, `rw,nosuid,nodev,size=${scratchTmpfsSize}`]),
          ),
        }
      : {}),
  };
}

/**
 * True for root, by name or uid, with any group: the uid is compared as a number, as Docker
 * reads it ("00", "000" and "00:0" are all uid 0). A name that an image maps to uid 0 is
 * caught later, by the health check asking the container who the user is.
 */
export function isRootUser(user: string): boolean {
  const name = user.split(':')[0] ?? '';
  return name === 'root' || (/^[+-]?\d+$/.test(name) && Number(name) === 0);
}

/** A process that keeps a container alive doing nothing (any image with `sh` and `sleep`). */
export const keepAliveCommand = ['sh', '-c', 'while :; do sleep 3600; done'];
