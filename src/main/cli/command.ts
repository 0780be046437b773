import type { EngineAddress } from '../../shared/lab-client';

/** A `cuelab` subcommand: its usage text and what it does with the arguments after its name. */
export interface CliCommand {
  /** The word after `cuelab`. */
  name: string;
  /** One line for `cuelab --help`. */
  summary: string;
  /** The full `cuelab NAME --help` text. */
  usage: string;
  /**
   * True for a command that works on this machine only (serve, env, demo, ...): it never
   * goes through `--engine`, and its --help says so. A function decides by the arguments
   * after the name (`env hosts` reaches an engine, `env bootstrap` does not).
   */
  local?: boolean | ((args: string[]) => boolean);
  /** Runs the command; resolves to the process exit code. No context: a local engine. */
  run(args: string[], io: CliIo, context?: CliContext): Promise<number>;
}

/** How a command reaches the engine, from the global options before its name. */
export interface CliContext {
  /** `--engine URL --token T` (or CUELAB_ENGINE / CUELAB_TOKEN); null: open the workspace here. */
  remote: EngineAddress | null;
}

/** Where a command writes; injectable so commands are testable in-process. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Exit codes: 0 ok, 1 the work failed, 2 the command line was wrong. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage mistake: the message is printed with a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The work of a command failed on this machine (a file to read or write): exit 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/** Whether `command` run with `args` stays on this machine. */
export function runsLocally(command: CliCommand, args: string[]): boolean {
  return typeof command.local === 'function' ? command.local(args) : command.local === true;
}
