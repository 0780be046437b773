/**
 * `cuelab suite import PATH` for other harnesses' runs, and `cuelab suite show`:
 * prints what was imported, with gold labels, message counts and environments, and every
 * file skipped with its reason.
 */
import { readFileSync } from 'node:fs';
import type { LabResponse } from '../../shared/lab-api';
import { importFormats, type ImportFormat } from '../../shared/suite-format';
import { exitCodes, UsageError, type CliIo } from './command';
import { unwrap, type LabSession } from './connection';
import { pathForEngine } from './files';

/** Options of `suite import` beyond the path. */
export interface SuiteImportFlags {
  format?: string;
  name?: string;
  tasks?: string;
  toolOutputLimit?: string;
  keepFlagged?: boolean;
  allowDuplicate?: boolean;
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

/** Imports the runs under `path` (a file or folder on this machine) and prints the summary. */
export async function importRunsCommand(
  session: LabSession,
  path: string,
  format: 'auto' | ImportFormat,
  flags: SuiteImportFlags,
  io: CliIo,
): Promise<number> {
  const limit = toolOutputLimit(flags.toolOutputLimit);
  const source = await pathForEngine(session, path);
  const tasksDir = flags.tasks ? await pathForEngine(session, flags.tasks) : undefined;
  const outcome = unwrap(
    await session.api.importRuns({
      path: source,
      format,
      ...(flags.name ? { name: flags.name } : {}),
      ...(tasksDir ? { tasksDir } : {}),
      ...(limit !== undefined ? { toolOutputLimit: limit } : {}),
      keepFlagged: flags.keepFlagged ?? false,
      ...(flags.allowDuplicate ? { allowDuplicate: true } : {}),
      save: true,
    }),
  );
  if (flags.json) {
    // The runs as the importer reported them (the digest is the window's extra).
    const imported = outcome.imported.map(({ sha256: _sha256, ...entry }) => entry);
    io.out(
      JSON.stringify(
        {
          suite: outcome.suiteId,
          imported,
          skipped: outcome.skipped,
          warnings: outcome.warnings,
        },
        null,
        2,
      ),
    );
    return exitCodes.ok;
  }
  const { workspace } = unwrap(await session.api.health({}));
  printSummary(outcome, workspace, io);
  return exitCodes.ok;
}

function printSummary(outcome: LabResponse<'importRuns'>, workspace: string, io: CliIo): void {
  const total = outcome.imported.length + outcome.skipped.length;
  io.out(
    `Imported ${outcome.imported.length} of ${total} runs into suite ${outcome.suiteId} ` +
      `("${outcome.suiteName}") in ${workspace}.`,
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
  const withoutGold = outcome.imported.filter((entry) => entry.gold === null);
  if (withoutGold.length > 0) {
    // Loud on purpose: an item without gold cannot be scored, and a lost report looks the same.
    io.out(
      `${withoutGold.length} of ${outcome.imported.length} imported runs have no gold label ` +
        `(no report found): ${withoutGold.map((entry) => entry.id).join(', ')}`,
    );
  }
  if (outcome.skipped.length > 0) {
    io.out(`Skipped ${outcome.skipped.length}:`);
    for (const entry of outcome.skipped) io.out(`  ${entry.path}: ${entry.reason}`);
  }
  // Loud: a run that lost steps would be judged as a shorter run than the agent's.
  for (const warning of outcome.warnings) io.out(`WARNING: ${warning}`);
}

/** `cuelab suite show SUITE`: each item's gold, size, environment and provenance. */
export async function showSuite(session: LabSession, suiteId: string, io: CliIo): Promise<number> {
  const { workspace, items } = unwrap(await session.api.describeSuite({ suiteId }));
  if (items.length === 0) {
    io.err(`cuelab suite: there is no suite "${suiteId}" in ${workspace}.`);
    return exitCodes.failed;
  }
  for (const item of items) io.out(item);
  return exitCodes.ok;
}
