/**
 * `cuelab suite import PATH` for other harnesses' runs, and `cuelab suite show` (issue 11):
 * prints what was imported, with gold labels, message counts and environments, and every
 * file skipped with its reason.
 */
import { readFileSync } from 'node:fs';
import { importFormats, type ImportFormat, type SuiteItem } from '../../shared/suite-format';
import type { Engine } from '../engine/engine';
import { describeSpec, importRuns, type ImportOutcome } from '../engine/suites/import';
import { listSuiteItems, saveSuite } from '../engine/store/suite-items';
import { exitCodes, UsageError, type CliIo } from './command';

/** Options of `suite import` beyond the path. */
export interface SuiteImportFlags {
  format?: string;
  name?: string;
  tasks?: string;
  toolOutputLimit?: string;
  keepFlagged?: boolean;
  json?: boolean;
}

/** Whether `path` is CueLab's own suite file (the format `cuelab suite import` always read). */
export function isCuelabSuiteFile(path: string): boolean {
  if (!path.endsWith('.json')) return false;
  try {
    const head = readFileSync(path, 'utf8').slice(0, 4096);
    return /^\s*\{[\s\S]*"items"\s*:/.test(head) || /^\s*\{\s*"id"\s*:\s*"[a-z0-9-]+"/.test(head);
  } catch {
    return false;
  }
}

/** Checks the flags and names the format, 'auto' by default. */
export function importFormat(flag: string | undefined): 'auto' | ImportFormat | 'cuelab' {
  if (flag === undefined || flag === 'auto') return 'auto';
  if (flag === 'cuelab' || (importFormats as readonly string[]).includes(flag)) {
    return flag as ImportFormat | 'cuelab';
  }
  throw new UsageError(`--format must be auto, cuelab or one of ${importFormats.join(', ')}`);
}

function toolOutputLimit(flag: string | undefined): number | 'unbounded' | undefined {
  if (flag === undefined) return undefined;
  if (flag === 'unbounded') return 'unbounded';
  const value = Number(flag);
  if (!Number.isInteger(value) || value < 200) {
    throw new UsageError(
      '--tool-output-limit must be a whole number of characters (200 or more) or unbounded',
    );
  }
  return value;
}

/** Imports the runs under `path` into the engine's workspace and prints the summary. */
export function importRunsCommand(
  engine: Engine,
  path: string,
  format: 'auto' | ImportFormat,
  flags: SuiteImportFlags,
  io: CliIo,
): number {
  const limit = toolOutputLimit(flags.toolOutputLimit);
  const outcome = importRuns({
    path,
    format,
    ...(flags.name ? { name: flags.name } : {}),
    ...(flags.tasks ? { tasksDir: flags.tasks } : {}),
    ...(limit !== undefined ? { toolOutputLimit: limit } : {}),
    keepFlagged: flags.keepFlagged ?? false,
  });
  saveSuite(engine.store, outcome.suite, 'imported');
  if (flags.json) {
    io.out(
      JSON.stringify(
        { suite: outcome.suite.id, imported: outcome.imported, skipped: outcome.skipped },
        null,
        2,
      ),
    );
    return exitCodes.ok;
  }
  printSummary(outcome, engine.workspace.path, io);
  return exitCodes.ok;
}

function printSummary(outcome: ImportOutcome, workspace: string, io: CliIo): void {
  const total = outcome.imported.length + outcome.skipped.length;
  io.out(
    `Imported ${outcome.imported.length} of ${total} runs into suite ${outcome.suite.id} ` +
      `("${outcome.suite.name}") in ${workspace}.`,
  );
  const width = Math.max(...outcome.imported.map((entry) => entry.id.length), 4);
  io.out(`  ${'item'.padEnd(width)}  format          gold  msgs  environment`);
  for (const entry of outcome.imported) {
    io.out(
      `  ${entry.id.padEnd(width)}  ${entry.format.padEnd(14)}  ${(entry.gold ?? '-').padEnd(4)}  ` +
        `${String(entry.messages).padStart(4)}  ${entry.environment}` +
        (entry.flags.length ? `  FLAGGED: ${entry.flags.join('; ')}` : ''),
    );
  }
  if (outcome.skipped.length > 0) {
    io.out(`Skipped ${outcome.skipped.length}:`);
    for (const entry of outcome.skipped) io.out(`  ${entry.path}: ${entry.reason}`);
  }
}

/** `cuelab suite show SUITE`: each item's gold, size, environment and provenance. */
export function showSuite(engine: Engine, suiteId: string, io: CliIo): number {
  const items = listSuiteItems(engine.store, suiteId);
  if (items.length === 0) {
    io.err(`cuelab suite: there is no suite "${suiteId}" in ${engine.workspace.path}.`);
    return exitCodes.failed;
  }
  for (const item of items) io.out(describeItem(item));
  return exitCodes.ok;
}

/** One item in a few lines, as `suite show` prints it. */
export function describeItem(item: SuiteItem): string {
  const lines = [
    `${item.id}  gold ${item.gold ?? '-'}  ${item.trajectory.length} messages  ${item.dataset}/${item.substrate}`,
    `  environment: ${describeSpec(item)}`,
  ];
  const origin = item.provenance;
  if (origin) {
    lines.push(`  source: ${origin.source} (${origin.format}, sha256 ${origin.sha256})`);
    if (origin.agent) lines.push(`  agent: ${origin.agent}`);
    if (origin.flags?.length) lines.push(`  flags: ${origin.flags.join('; ')}`);
  }
  if (item.render) lines.push(`  tool outputs cut at: ${item.render.toolOutputLimit}`);
  if (item.note) lines.push(`  note: ${item.note}`);
  return lines.join('\n');
}
