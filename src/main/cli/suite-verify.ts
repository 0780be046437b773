/**
 * `cuelab suite verify` and `cuelab suite build-mini`: Docker work on this machine (each item
 * rebuilt and its verifier run; the built-in suite regenerated). They stay local, like
 * `env bootstrap`: --engine does not reach them (suite.ts refuses it).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SuiteItem } from '../../shared/suite-format';
import { createEngine, workspaceForProcess } from '../engine/engine';
import { withInterrupt } from './interrupt';
import { exitCodes, type CliIo } from './command';
import {
  builtinSuiteIds,
  ensureWorkspaceSuite,
  formatSuiteJson,
  generateMiniSuite,
  loadBuiltinSuite,
  loadSuiteFile,
  resourcesDir,
  type VerifyRow,
  verifySuite,
} from '../engine/machine';
import { countOf } from './words';

/** `suite verify SUITE`: each item rebuilt in Docker, its verifier against its gold label. */
export function verifyCommand(
  io: CliIo,
  target: string,
  itemIds: string[],
  workspace: string | undefined,
): Promise<number> {
  const items = resolveSuiteItems(target, workspace);
  return withInterrupt((signal) => verify(io, target, items, itemIds, signal));
}

/** `suite build-mini`: regenerates the built-in cuelab-mini suite. */
export function buildMiniCommand(io: CliIo, out: string | undefined): Promise<number> {
  return withInterrupt((signal) => buildMini(io, out, signal));
}

/** A suite file path, a built-in suite id, or a suite stored in the workspace. */
function resolveSuiteItems(target: string, workspace: string | undefined): SuiteItem[] {
  if (existsSync(target) && statSync(target).isFile()) return loadSuiteFile(target).items;
  if ((builtinSuiteIds as readonly string[]).includes(target)) {
    return loadBuiltinSuite(target).items;
  }
  const engine = createEngine(workspaceForProcess(workspace));
  try {
    return ensureWorkspaceSuite(engine, target).items;
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
    io.out(
      `All ${countOf(rows.length, 'item')} of ${name} agree with their stored labels (${seconds}s).`,
    );
    return exitCodes.ok;
  }
  io.err(
    `cuelab suite verify: ${bad.length} of ${countOf(rows.length, 'item')} of ${name} disagree:`,
  );
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
    `Wrote ${countOf(suite.items.length, 'item')} (${passing} pass, ${suite.items.length - passing} fail) ` +
      `to ${path}.`,
  );
  return exitCodes.ok;
}
