/**
 * The `cuelab` command line: a registry of subcommands sharing one engine. Usage mistakes
 * exit 2 with a pointer to help; failures of the work exit 1 with a message naming the fix.
 */
import { EngineError, ProviderError, engineVersion } from '../engine/engine';
import {
  CommandError,
  exitCodes,
  runsLocally,
  UsageError,
  type CliCommand,
  type CliIo,
} from './command';
import { engineOptionsUsage, LabCallError, parseGlobalOptions } from './connection';
import { compareCommand } from './compare';
import { cuesCommand } from './cues';
import { demoCommand } from './demo';
import { doctorCommand } from './doctor';
import { envCommand } from './env';
import { estimateCommand } from './estimate';
import { validateCommand } from './validate';
import { exportInspectCommand } from './export-inspect';
import { importResultsCommand } from './import-results';
import { judgeCommand } from './judge';
import {
  classifyCommand,
  exportBundleCommand,
  exportLabelsCommand,
  importLabelsCommand,
  openBundleCommand,
} from './mechanisms';
import { promptCommand } from './prompt';
import { providersCommand } from './providers';
import { reportCommand } from './report';
import { runCommand } from './run';
import { statusCommand } from './status';
import { serveCommand } from './serve';
import { suiteCommand } from './suite';
import { didYouMean, plainParseError } from './suggest';

/** Every subcommand; later issues add theirs here. */
export const commands: readonly CliCommand[] = [
  serveCommand,
  demoCommand,
  doctorCommand,
  envCommand,
  suiteCommand,
  promptCommand,
  cuesCommand,
  judgeCommand,
  estimateCommand,
  validateCommand,
  runCommand,
  statusCommand,
  importResultsCommand,
  reportCommand,
  compareCommand,
  classifyCommand,
  exportBundleCommand,
  exportInspectCommand,
  openBundleCommand,
  exportLabelsCommand,
  importLabelsCommand,
  providersCommand,
];

/** The `cuelab --help` text. */
export function mainUsage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map(
    (command) =>
      `  ${command.name.padEnd(width)}  ${command.summary}${command.local === true ? ' (runs locally)' : ''}`,
  );
  return [
    `CueLab ${engineVersion}: a lab for measuring how planted cues move agentic LLM judges.`,
    '',
    'Usage: cuelab [--engine URL --token T] <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -h, --help      show help (also: cuelab <command> --help)',
    '  -v, --version   print the version',
    engineOptionsUsage,
    '',
    'Commands marked "runs locally" always open the workspace on this machine.',
  ].join('\n');
}

/** The `cuelab NAME --help` text; a local command says it does not take --engine. */
export function commandUsage(command: CliCommand): string {
  if (!command.local) return command.usage;
  if (typeof command.local === 'function')
    return `${command.usage}\n\nThis command runs locally except where its help says --engine reaches it.`;
  return `${command.usage}\n\nThis command runs locally: it opens the workspace on this machine and does not\ntake --engine / --token.`;
}

/** Runs the command line `args` (without `node` and the script); resolves to the exit code. */
export async function runCli(
  args: string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  let global;
  try {
    global = parseGlobalOptions(args, env);
  } catch (error) {
    io.err(`cuelab: ${(error as Error).message}. Run "cuelab --help" for usage.`);
    return exitCodes.usage;
  }
  const [first, ...rest] = global.rest;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    const command = topic ? commands.find((candidate) => candidate.name === topic) : undefined;
    if (topic && !command) return unknownCommand(topic, io);
    io.out(command ? commandUsage(command) : mainUsage());
    return exitCodes.ok;
  }
  if (first === '-v' || first === '--version') {
    io.out(engineVersion);
    return exitCodes.ok;
  }
  if (first.startsWith('-')) {
    const known = ['--help', '--version', '--engine', '--token'];
    io.err(
      `cuelab: unknown option "${first}".${didYouMean(first, known)} Run "cuelab --help" for usage.`,
    );
    return exitCodes.usage;
  }
  const command = commands.find((candidate) => candidate.name === first);
  if (!command) return unknownCommand(first, io);
  if (rest.includes('-h') || rest.includes('--help')) {
    io.out(commandUsage(command));
    return exitCodes.ok;
  }
  const local = runsLocally(command, rest);
  if (local && global.remote) {
    if (global.explicit) {
      io.err(`cuelab ${command.name} runs locally and does not take --engine / --token.`);
      return exitCodes.usage;
    }
    io.err(`cuelab ${command.name} runs locally; $CUELAB_ENGINE is not used.`);
  }
  try {
    return await command.run(rest, io, { remote: local ? null : global.remote });
  } catch (error) {
    return reportFailure(command, error, io);
  }
}

function unknownCommand(name: string, io: CliIo): number {
  const known = commands.map((command) => command.name);
  io.err(
    `cuelab: unknown command "${name}".${didYouMean(name, known)} ` +
      'Run "cuelab --help" for the list of commands.',
  );
  return exitCodes.usage;
}

function reportFailure(command: CliCommand, error: unknown, io: CliIo): number {
  const parseError = plainParseError(error, command.usage);
  if (error instanceof UsageError || parseError !== null) {
    io.err(`cuelab ${command.name}: ${parseError ?? (error as Error).message}`);
    io.err(`Run "cuelab ${command.name} --help" for usage.`);
    return exitCodes.usage;
  }
  if (
    error instanceof EngineError ||
    error instanceof ProviderError ||
    error instanceof LabCallError ||
    error instanceof CommandError
  ) {
    io.err(`cuelab ${command.name}: ${error.message}`);
    return exitCodes.failed;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.err(`cuelab ${command.name} failed unexpectedly: ${message}`);
  return exitCodes.failed;
}
