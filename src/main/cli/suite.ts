import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SuiteItem } from '../../shared/suite-format';
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

const actions = ['import', 'list', 'verify', 'build-mini'] as const;

/** `cuelab suite`: import, list and verify suites of judged items. */
export const suiteCommand: CliCommand = {
  name: 'suite',
  summary: 'Import a suite file into the workspace, list suites and their items, verify labels',
  usage: `Usage: cuelab suite import FILE [--workspace DIR]
       cuelab suite list [SUITE] [--workspace DIR]
       cuelab suite verify SUITE [--item ID]... [--workspace DIR]

import   validates FILE (the suite format in the README) and stores it in the workspace,
         replacing an earlier import with the same id; a bad file is rejected whole with
         every problem listed by field.
list     lists suites (built-in ones included), or the items of SUITE.
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
      },
      allowPositionals: true,
      strict: true,
    });
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (!(actions as readonly (string | undefined)[]).includes(action)) {
      throw new UsageError(
        action
          ? `unknown action "${action}"; use import, list or verify`
          : 'name an action: import, list or verify',
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
    if (action === 'import' && !target) throw new UsageError('suite import needs a FILE');
    const suite = action === 'import' && target ? loadSuiteFile(target) : undefined;
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
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
