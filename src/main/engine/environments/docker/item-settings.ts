/**
 * An environment spec's Docker fields with their defaults applied, the agent's shell actions
 * taken from its trajectory for replay, and the container limits they imply.
 */
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import type { Trajectory } from '../../../../shared/trajectory';
import { EngineError } from '../../errors';

/** Defaults of the optional Docker fields of an environment spec. */
export const dockerDefaults = {
  workdir: '/workspace',
  /** Non-root; created in the snapshot when the image lacks it. */
  user: 'agent',
  resources: { cpus: 1, memoryMb: 1024, pids: 256 },
  replayTools: ['shell', 'bash', 'execute_bash', 'run_shell_command'],
  /** Per setup or replayed command. */
  setupTimeoutMs: 10 * 60_000,
} as const;

/** The Docker side of one item, every default applied. */
export interface DockerItemSettings {
  workdir: string;
  user: string;
  network: boolean;
  resources: { cpus: number; memoryMb: number; pids: number };
  setup: string[];
  /** The agent's shell commands to replay, in trajectory order (empty unless `replay`). */
  replay: string[];
}

/** Applies the defaults to `spec`, and collects replayed commands from `trajectory`. */
export function dockerItemSettings(
  spec: EnvironmentSpec,
  trajectory: Trajectory | undefined,
): DockerItemSettings {
  if (spec.replay && !trajectory) {
    throw new EngineError(
      'bad_request',
      'This environment replays the trajectory, but none was given.',
    );
  }
  return {
    workdir: spec.workdir ?? dockerDefaults.workdir,
    user: spec.user ?? dockerDefaults.user,
    network: spec.network ?? false,
    resources: { ...dockerDefaults.resources, ...spec.resources },
    setup: spec.setup ?? [],
    replay:
      spec.replay && trajectory
        ? replayedCommands(trajectory, spec.replayTools ?? dockerDefaults.replayTools)
        : [],
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

/** Container limits and isolation for `settings`: no network unless asked, no privilege gain. */
export function containerHostConfig(settings: DockerItemSettings): Docker.HostConfig {
  const memory = settings.resources.memoryMb * 1024 * 1024;
  return {
    NetworkMode: settings.network ? 'bridge' : 'none',
    NanoCpus: Math.round(settings.resources.cpus * 1e9),
    Memory: memory,
    MemorySwap: memory,
    PidsLimit: settings.resources.pids,
    SecurityOpt: ['no-new-privileges'],
  };
}

/** True for root, by name or uid. */
export function isRootUser(user: string): boolean {
  return user === 'root' || user === '0' || user.startsWith('0:');
}

/** A process that keeps a container alive doing nothing (any image with `sh` and `sleep`). */
export const keepAliveCommand = ['sh', '-c', 'while :; do sleep 3600; done'];
