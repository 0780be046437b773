import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ImportFormat, SuiteItem } from '../../shared/suite-format';
import { createEngine } from '../engine/engine';
import type { Store } from '../engine/store/database';
import { saveSuite, listSuiteItemIds } from '../engine/store/suite-items';
import { listSuites } from '../engine/store/suites';
import {
  builtinSuiteIds,
  ensureSuite,
  loadBuiltinSuite,
  resourcesDir,
} from '../engine/suites/builtin';
import { loadSuiteFile } from '../engine/suites/load';
import { generateMiniSuite } from '../engine/suites/mini/generate';
import { formatSuiteJson } from '../engine/suites/mini/suite-json';
import { verifySuite, type VerifyRow } from '../engine/suites/mini/verify';
import { workspaceForProcess } from '../engine/workspace';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { importFormat, importRunsCommand, isCuelabSuiteFile, showSuite } from './suite-import';

const actions = ['import', 'list', 'show', 'verify', 'build-mini'] as const;

/** `cuelab suite`: import, list and verify suites of judged items. */
export const suiteCommand: CliCommand = {
  name: 'suite',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary: 'Import a suite file into the workspace, list suites and their items, verify labels',
  usage: `Usage: cuelab suite import PATH [--format FORMAT] [--name SUITE] [--tasks DIR]
                         [--tool-output-limit N|unbounded] [--keep-flagged] [--json]
       cuelab suite list [SUITE] [--workspace DIR]
       cuelab suite show SUITE [--workspace DIR]
       cuelab suite verify SUITE [--item ID]... [--workspace DIR]

import   stores a suite in the workspace, replacing an earlier one with the same id.
         A CueLab suite file (the format in the README) is validated and rejected whole
         on any problem. Any other PATH (a file or a folder) is read as other harnesses'
         runs: --format auto (default), mini-swe-agent, swe-agent, terminal-bench,
         harbor, mcpmark or inspect. Each run becomes an item with its gold label, its
         environment and its provenance (source file, format, sha256); a run that cannot
         be read is skipped and named with the reason, a run whose agent never ran is
         skipped unless --keep-flagged. Nothing is stored unless at least one run
         imports. --name names the suite (default: the folder's name); --tasks DIR holds
         task folders (Terminal-Bench task.yaml + Dockerfile, Harbor task.toml) the run
         folder lacks; --tool-output-limit cuts each tool output the judge reads to N
         characters, head and tail kept, the cut marked (default 4000).
list     lists suites (built-in ones included), or the items of SUITE.
show     prints each item of SUITE: gold label, message count, environment, provenance.
verify   rebuilds each item of SUITE (a built-in id, a suite file, or a suite in the
         workspace) in Docker as a judge would get it, runs its verifier there, and compares
         the verdict (and the item's decisive probes) with the stored gold label. Prints a
         line per item; exits 1 listing every item that disagrees. Needs Docker and the base
         image (cuelab env bootstrap).

For maintainers: cuelab suite build-mini [--out FILE] regenerates the built-in cuelab-mini
suite by running its scripted agents in Docker (default: resources/suites/cuelab-mini.json).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        item: { type: 'string', multiple: true },
        out: { type: 'string' },
        format: { type: 'string' },
        name: { type: 'string' },
        tasks: { type: 'string' },
        'tool-output-limit': { type: 'string' },
        'keep-flagged': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (!(actions as readonly (string | undefined)[]).includes(action)) {
      throw new UsageError(
        action
          ? `unknown action "${action}"; use import, list, show or verify`
          : 'name an action: import, list, show or verify',
      );
    }
    if (values.item && action !== 'verify') throw new UsageError('--item is for suite verify');
    if (values.out && action !== 'build-mini') throw new UsageError('--out is for build-mini');
    if (action === 'build-mini') {
      if (target) throw new UsageError(`unexpected arguments: ${target}`);
      return withInterrupt((signal) => buildMini(io, values.out, signal));
    }
    if (action === 'verify') {
      if (!target) throw new UsageError('suite verify needs a SUITE');
      const items = resolveSuiteItems(target, values.workspace);
      return withInterrupt((signal) => verify(io, target, items, values.item ?? [], signal));
    }
    const importFlags = [values.format, values.name, values.tasks, values['tool-output-limit']];
    if (
      action !== 'import' &&
      (importFlags.some((flag) => flag !== undefined) || values['keep-flagged'] || values.json)
    ) {
      throw new UsageError(
        '--format, --name, --tasks, --tool-output-limit, --keep-flagged and --json are for suite import',
      );
    }
    if (action === 'import' && !target) throw new UsageError('suite import needs a PATH');
    if (action === 'show' && !target) throw new UsageError('suite show needs a SUITE');
    const format = importFormat(values.format);
    const ownFormat =
      action === 'import' &&
      target &&
      (format === 'cuelab' || (format === 'auto' && isCuelabSuiteFile(target)));
    const suite = ownFormat && target ? loadSuiteFile(target) : undefined;
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      if (action === 'import' && target && !suite) {
        return importRunsCommand(
          engine,
          target,
          format as 'auto' | ImportFormat,
          {
            ...(values.name ? { name: values.name } : {}),
            ...(values.tasks ? { tasks: values.tasks } : {}),
            ...(values['tool-output-limit']
              ? { toolOutputLimit: values['tool-output-limit'] }
              : {}),
            keepFlagged: values['keep-flagged'] ?? false,
            json: values.json ?? false,
          },
          io,
        );
      }
      if (action === 'show' && target) return showSuite(engine, target, io);
      if (suite) {
        saveSuite(engine.store, suite, 'imported');
        io.out(
          `Imported suite ${suite.id} (${suite.items.length} items) into ${engine.workspace.path}.`,
        );
        return exitCodes.ok;
      }
      importShippedSuites(engine.store);
      if (target) {
        const ids = listSuiteItemIds(engine.store, target);
        if (ids.length === 0) {
          io.err(`cuelab suite: there is no suite "${target}" in ${engine.workspace.path}.`);
          return exitCodes.failed;
        }
        for (const id of ids) io.out(id);
        return exitCodes.ok;
      }
      const suites = listSuites(engine.store);
      if (suites.length === 0) io.out('No suites yet. Import one with: cuelab suite import FILE');
      for (const entry of suites) io.out(`${entry.id}\t${entry.itemCount} items\t${entry.name}`);
      return exitCodes.ok;
    } finally {
      engine.close();
    }
  },
};

/** Imports (or refreshes) the built-in suites this installation ships, so `list` shows them. */
function importShippedSuites(store: Store): void {
  for (const id of builtinSuiteIds) {
    let shipped: boolean;
    try {
      shipped = existsSync(join(resourcesDir(), 'suites', `${id}.json`));
    } catch {
      continue; // no resources folder (a bare engine build): nothing is shipped
    }
    if (shipped) ensureSuite(store, id);
  }
}

/** A suite file path, a built-in suite id, or a suite stored in the workspace. */
function resolveSuiteItems(target: string, workspace: string | undefined): SuiteItem[] {
  if (existsSync(target) && statSync(target).isFile()) return loadSuiteFile(target).items;
  if ((builtinSuiteIds as readonly string[]).includes(target)) {
    return loadBuiltinSuite(target).items;
  }
  const engine = createEngine(workspaceForProcess(workspace));
  try {
    return ensureSuite(engine.store, target).items;
  } finally {
    engine.close();
  }
}

async function verify(
  io: CliIo,
  name: string,
  items: SuiteItem[],
  itemIds: string[],
  signal: AbortSignal,
): Promise<number> {
  const started = Date.now();
  const width = Math.max(...items.map((item) => item.id.length));
  const rows = await verifySuite(
    { items },
    {
      itemIds,
      signal,
      onProgress: (row, done, total) => io.out(formatRow(row, done, total, width)),
    },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  const bad = rows.filter((row) => !row.ok);
  if (bad.length === 0) {
    io.out(`All ${rows.length} items of ${name} agree with their stored labels (${seconds}s).`);
    return exitCodes.ok;
  }
  io.err(`cuelab suite verify: ${bad.length} of ${rows.length} items of ${name} disagree:`);
  for (const row of bad) {
    io.err(`  ${row.itemId}: ${describeDisagreement(row)}`);
    for (const line of row.output.split('\n').slice(-6)) io.err(`      ${line}`);
  }
  return exitCodes.failed;
}

function formatRow(row: VerifyRow, done: number, total: number, width: number): string {
  const counter = `[${String(done).padStart(String(total).length)}/${total}]`;
  const probes = row.decisiveProbes ? `  probes ${row.decisiveProbes}` : '';
  return (
    `${counter} ${row.ok ? 'ok  ' : 'DIFF'} ${row.itemId.padEnd(width)}  gold ${row.gold ?? '-'}` +
    `  verifier ${row.verifier}${probes}  ${row.seconds.toFixed(1)}s`
  );
}

function describeDisagreement(row: VerifyRow): string {
  if (row.gold === null) return 'the item has no gold label';
  if (row.verifier === 'error') return `could not be verified (gold ${row.gold})`;
  const parts: string[] = [];
  if (row.verifier !== row.gold) parts.push(`the verifier says ${row.verifier}`);
  if (row.decisiveProbes && row.decisiveProbes !== row.gold) {
    parts.push(`the decisive probes say ${row.decisiveProbes}`);
  }
  return `stored gold ${row.gold}, but ${parts.join(' and ')}`;
}

async function buildMini(io: CliIo, out: string | undefined, signal: AbortSignal): Promise<number> {
  const path = out ?? join(resourcesDir(), 'suites', 'cuelab-mini.json');
  io.out(`Building cuelab-mini: running each scripted agent in Docker, then its verifier.`);
  const suite = await generateMiniSuite({ signal, onProgress: (line) => io.out(line) });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, formatSuiteJson(suite));
  const passing = suite.items.filter((item) => item.gold === 'pass').length;
  io.out(
    `Wrote ${suite.items.length} items (${passing} pass, ${suite.items.length - passing} fail) ` +
      `to ${path}.`,
  );
  return exitCodes.ok;
}

/** Runs `work` with a signal that Ctrl-C (or SIGTERM) aborts, so containers are removed. */
async function withInterrupt(work: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
}
