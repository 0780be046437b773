/**
 * `npm run bench`: CueLab's benchmark (speed and memory are measured here, never in timed
 * tests). Three parts, each independent of the others:
 *   (a) harness overhead per judge rep on a real container vs raw dockerode (needs Docker);
 *   (b) study throughput against a fake provider with 1 s latency at concurrency 1, 8, 32, and at
 *       32 again beside CPU-bound busy-loop processes (--background N, default 2; 0 skips);
 *   (c) a generated paper-scale workspace (70,000 reps) and the time of every report table;
 *   (d) rep start with a PostgreSQL server vs without (needs Docker and both images);
 *   (h) study throughput with one Docker engine vs two (needs Docker and root);
 *   (p) a rep's container made while the rep before runs vs the raw dockerode floor (Docker);
 *   (t) strangers' text: redaction, the web reader and stored-text unpacking at 256 KiB-4 MiB.
 *   (r) key redaction's cost per statement (a write, a read) beside a plain connection's.
 *   (o) the wall time of `cuelab demo` with no Docker daemon (needs `npm run build`);
 *   (s) the workbench at paper scale with stored messages: a page, searches, and a health
 *       request's latency meanwhile, through `cuelab serve` (needs `npm run build`).
 *   (u) start-up: `cuelab serve` to its ready line, `cuelab run` to its first model request
 *       (needs `npm run build`);
 *   (f) the workbench's first flipped page at paper scale, flips found vs the kept flip list;
 *   (e) the engine never blocks: over HTTP to `cuelab serve` on part (s)'s workspace, a health
 *       request's p50/p99 alone and during the end-of-study drawing, a workbench page, searches,
 *       an Inspect and a bundle export; the engine's and the CLI's start; the first table of an
 *       interrupted study against the plain scan; the never-blocking targets met or not (`npm run build`).
 * Prints medians (p90 where useful) and a summary, and writes bench-results/summary-<date>.json.
 *
 * Options: --only a,b,c,d,h,p,t,r,o,s,u,f,e   --reps N (parts a, d and p, default 15)   --latency MS (parts b, h; default 1000)
 *   --background N (part b: busy processes beside its loaded c=32 runs, default 2, 0 for none)
 *   --messages N (parts s, e: stored messages per rep, default 20)   --workspace-file PATH (parts s, f, e:
 *   start from a copy of a paper-scale workspace generated before)   --item-stride N (part e: every
 *   Nth item, for a quick run at 1/N of the scale)   --job-seconds S (part e: an export given up
 *   after S seconds, default 120). CUELAB_BENCH_WORKSPACES=DIR keeps generated
 *   workspaces in DIR (parts c, s, e) and copies them per run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchDockerOverhead, type DockerOverheadResult } from './docker-overhead';
import { now, round } from './measure';
import { notRun, printDocker, printPaperScale, printThroughput, type PartOutcome } from './print';
import { benchPostgresStart, printPostgresStart, type PostgresStartResult } from './postgres-start';
import { benchPaperScale, type PaperScaleResult } from './report-timing';
import { benchHosts, printHosts, type HostsResult } from './hosts';
import { benchOfflineDemo, type OfflineDemoResult } from './offline-demo';
import { benchPrewarm, printPrewarm, type PrewarmResult } from './prewarm';
import { benchResponsiveness, type ResponsivenessResult } from './responsiveness';
import { printResponsiveness } from './responsiveness-print';
import { benchFlippedFilter, type FlippedFilterResult } from './flipped-filter';
import { benchStartup, type StartupResult } from './startup';
import { benchRedactionCost, printRedactionCost, type RedactionCostResult } from './redaction-cost';
import { benchStrangersText, type StrangersTextResult } from './strangers-text';
import { benchThroughput, type ThroughputResult } from './throughput';
import {
  benchWorkbenchSearch,
  printWorkbenchSearch,
  type WorkbenchSearchResult,
} from './workbench-search';

interface Options {
  parts: Set<string>;
  reps: number;
  latencyMs: number;
  background: number;
  messagesPerRep: number;
  workspaceFile: string | undefined;
  itemStride: number;
  jobSeconds: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    parts: new Set(['a', 'b', 'c', 'd', 'h', 'p', 't', 'r', 'o', 's', 'u', 'f', 'e']),
    reps: 15,
    latencyMs: 1000,
    background: 2,
    messagesPerRep: 20,
    workspaceFile: undefined,
    itemStride: 1,
    jobSeconds: 120,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = argv[index + 1] ?? '';
    if (flag === '--only') options.parts = new Set(value.split(',').map((part) => part.trim()));
    else if (flag === '--reps') options.reps = positive(flag, value);
    else if (flag === '--latency') options.latencyMs = positive(flag, value);
    else if (flag === '--background') options.background = wholeNumber(flag, value);
    else if (flag === '--messages') options.messagesPerRep = positive(flag, value);
    else if (flag === '--workspace-file') options.workspaceFile = value;
    else if (flag === '--item-stride') options.itemStride = positive(flag, value);
    else if (flag === '--job-seconds') options.jobSeconds = positive(flag, value);
    else
      throw new Error(
        `unknown option ${flag ?? ''} (known: --only a,b,c,d,h,p,t,r,o,s,u,f,e  --reps N  --latency MS  ` +
          '--background N  --messages N  --workspace-file PATH  --item-stride N  --job-seconds S)',
      );
    index += 1;
  }
  return options;
}

function wholeNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`${flag} needs a whole number ≥ 0`);
  return number;
}

function positive(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} needs a whole number ≥ 1`);
  return number;
}

async function part<T>(
  wanted: boolean,
  title: string,
  work: (log: (line: string) => void) => Promise<T>,
): Promise<PartOutcome<T>> {
  if (!wanted) return { status: 'skipped', reason: 'not selected (--only)' };
  console.log(title);
  const started = now();
  try {
    const result = await work((line) => console.log(line));
    return { status: 'ok', seconds: round((now() - started) / 1000), result };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`  failed: ${message}`);
    return { status: 'failed', seconds: round((now() - started) / 1000), error: message };
  }
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function fileStamp(date: Date): string {
  // Local-independent and sortable: 2026-05-01T093015 (UTC).
  return date.toISOString().slice(0, 19).replace(/:/g, '');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const started = now();
  const loadBefore = loadavg();

  const docker = await part<DockerOverheadResult>(
    options.parts.has('a'),
    '(a) harness overhead on a real container',
    (log) => benchDockerOverhead(options.reps, log),
  );
  // Docker being absent is a skip with its fix, not a failure.
  const dockerOutcome: PartOutcome<DockerOverheadResult> =
    docker.status === 'ok' && docker.result.status === 'skipped'
      ? { status: 'skipped', reason: docker.result.reason, fix: docker.result.fix }
      : docker;
  if (dockerOutcome.status === 'skipped' && options.parts.has('a'))
    console.log(notRun(dockerOutcome).join('\n'));
  const throughput = await part<ThroughputResult>(
    options.parts.has('b'),
    '(b) throughput against a fake provider',
    (log) => benchThroughput(log, options.latencyMs, options.background),
  );
  const paperScale = await part<PaperScaleResult>(
    options.parts.has('c'),
    '(c) paper-scale workspace and report tables',
    (log) => benchPaperScale(log),
  );
  const postgresStart = await part<PostgresStartResult>(
    options.parts.has('d'),
    '(d) rep start with PostgreSQL vs without',
    (log) => benchPostgresStart(options.reps, log),
  );

  const hosts = await part<HostsResult>(
    options.parts.has('h'),
    '(h) one Docker engine vs two',
    (log) => benchHosts(log, options.latencyMs),
  );

  const prewarm = await part<PrewarmResult>(
    options.parts.has('p'),
    '(p) next rep container made ahead vs the raw floor',
    (log) => benchPrewarm(options.reps, log),
  );

  const strangersText = await part<StrangersTextResult>(
    options.parts.has('t'),
    "(t) strangers' text at 256 KiB, 1 MiB and 4 MiB",
    (log) => benchStrangersText(log),
  );

  const redactionCost = await part<RedactionCostResult>(
    options.parts.has('r'),
    '(r) key redaction per statement vs a plain connection',
    (log) => benchRedactionCost(log),
  );

  const offlineDemo = await part<OfflineDemoResult>(
    options.parts.has('o'),
    '(o) cuelab demo without Docker',
    (log) => benchOfflineDemo(log),
  );

  const workbenchSearch = await part<WorkbenchSearchResult>(
    options.parts.has('s'),
    '(s) the workbench and search at paper scale, with stored messages',
    (log) =>
      benchWorkbenchSearch(log, {
        messagesPerRep: options.messagesPerRep,
        workspaceFile: options.workspaceFile,
      }),
  );

  const responsiveness = await part<ResponsivenessResult>(
    options.parts.has('e'),
    '(e) the engine never blocks, over HTTP at paper scale with stored messages',
    (log) =>
      benchResponsiveness(log, {
        messagesPerRep: options.messagesPerRep,
        itemStride: options.itemStride,
        jobSeconds: options.jobSeconds,
        workspaceFile: options.workspaceFile,
      }),
  );

  const startup = await part<StartupResult>(
    options.parts.has('u'),
    '(u) start-up: serve to its ready line, run to its first model request',
    (log) => benchStartup(log),
  );

  const flippedFilter = await part<FlippedFilterResult>(
    options.parts.has('f'),
    "(f) the workbench's first flipped page at paper scale",
    (log) => benchFlippedFilter(log, options.workspaceFile),
  );

  const totalSeconds = round((now() - started) / 1000);
  const summary = {
    startedAt: startedAt.toISOString(),
    totalSeconds,
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAverageBefore: loadBefore.map((value) => round(value, 2)),
      loadAverageAfter: loadavg().map((value) => round(value, 2)),
      commit: gitCommit(),
    },
    options: {
      parts: [...options.parts],
      reps: options.reps,
      latencyMs: options.latencyMs,
      background: options.background,
      messagesPerRep: options.messagesPerRep,
      itemStride: options.itemStride,
    },
    harnessOverhead: dockerOutcome,
    throughput,
    paperScale,
    postgresStart,
    hosts,
    prewarm,
    strangersText,
    redactionCost,
    offlineDemo,
    workbenchSearch,
    responsiveness,
    startup,
    flippedFilter,
  };
  const directory = join(__dirname, '..', 'bench-results');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `summary-${fileStamp(startedAt)}.json`);
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);

  const lines = [
    '',
    `CueLab bench summary (${summary.machine.node}, ${summary.machine.cpus} CPUs, load ` +
      `${summary.machine.loadAverageBefore[0]} -> ${summary.machine.loadAverageAfter[0]}, ${totalSeconds} s in all)`,
    ...printDocker(dockerOutcome),
    ...printThroughput(throughput),
    ...printPaperScale(paperScale),
    ...(postgresStart.status === 'ok' ? printPostgresStart(postgresStart.result) : []),
    ...printHosts(hosts),
    ...(prewarm.status === 'ok' ? printPrewarm(prewarm.result) : []),
    ...(redactionCost.status === 'ok' ? printRedactionCost(redactionCost.result) : []),
    ...(offlineDemo.status === 'ok'
      ? [`cuelab demo without Docker: ${offlineDemo.result.wallSeconds} s (target < 120 s)`]
      : []),
    ...(workbenchSearch.status === 'ok' ? printWorkbenchSearch(workbenchSearch.result) : []),
    ...(responsiveness.status === 'ok' ? printResponsiveness(responsiveness.result) : []),
    ...(startup.status === 'ok'
      ? [
          `start-up: serve ready ${startup.result.serveExistingWorkspaceMs.median} ms, run's first ` +
            `request ${startup.result.runFirstRequestMs.median} ms (load ${startup.result.loadBefore})`,
        ]
      : []),
    ...(flippedFilter.status === 'ok'
      ? [
          `first flipped page at ${flippedFilter.result.reps} reps: ${flippedFilter.result.firstPageKeptMs} ms ` +
            `with the flip list kept (target < 500 ms), ${flippedFilter.result.firstPageFindingMs} ms finding every flip`,
        ]
      : []),
    `written: ${file}`,
  ];
  console.log(lines.join('\n'));
  const outcomes = [
    dockerOutcome,
    throughput,
    paperScale,
    postgresStart,
    hosts,
    prewarm,
    strangersText,
    redactionCost,
    offlineDemo,
    workbenchSearch,
    responsiveness,
    startup,
    flippedFilter,
  ];
  if (outcomes.some((outcome) => outcome.status === 'failed')) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
