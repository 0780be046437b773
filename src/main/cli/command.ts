/** A `cuelab` subcommand: its usage text and what it does with the arguments after its name. */
export interface CliCommand {
  /** The word after `cuelab`. */
  name: string;
  /** One line for `cuelab --help`. */
  summary: string;
  /** The full `cuelab NAME --help` text. */
  usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], io: CliIo): Promise<number>;
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
