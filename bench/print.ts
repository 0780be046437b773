/**
 * The human summary printed at the end of `npm run bench`: one compact block per part.
 */
import { printDisk } from './disk';
import type { DockerOverheadResult } from './docker-overhead';
import type { PaperScaleResult } from './report-timing';
import { linearTarget, type ThroughputResult } from './throughput';

/** What a part produced: its result, or why it did not run. */
export type PartOutcome<T> =
  | { status: 'ok'; seconds: number; result: T }
  | { status: 'skipped'; reason: string; fix?: string }
  | { status: 'failed'; seconds: number; error: string };

/** Left-aligned columns, two spaces apart. */
export function columns(rows: readonly (readonly (string | number)[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach(
      (cell, index) => (widths[index] = Math.max(widths[index] ?? 0, String(cell).length)),
    );
  return rows.map((row) =>
    row
      .map((cell, index) => String(cell).padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** Why a part did not run, and the fix when there is one (indented under the part). */
export function notRun(
  outcome:
    { status: 'skipped'; reason: string; fix?: string } | { status: 'failed'; error: string },
): string[] {
  if (outcome.status === 'failed') return [`  FAILED: ${outcome.error}`];
  const fix = outcome.fix ? outcome.fix.split('\n') : [];
  return [
    `  skipped: ${outcome.reason}`,
    ...(fix.length ? ['  fix:', ...fix.map((line) => `    ${line}`)] : []),
  ];
}

/** Part (a)'s block. */
export function printDocker(outcome: PartOutcome<DockerOverheadResult>): string[] {
  const title = '(a) harness vs raw dockerode per judge rep (real container, 30 shell calls)';
  if (outcome.status !== 'ok') return [title, ...notRun(outcome)];
  const a = outcome.result;
  if (a.status === 'skipped') return [title, ...notRun(a)];
  const phases = a.harnessPhasesMs;
  return [
    `${title}, ${a.reps} reps each`,
    ...columns([
      ['', 'median', 'p90'],
      ['  harness rep', ms(a.harnessMsPerRep.median), ms(a.harnessMsPerRep.p90)],
      ['  raw dockerode rep', ms(a.rawMsPerRep.median), ms(a.rawMsPerRep.p90)],
      ['  harness tool call', ms(a.harnessMsPerToolCall.median), ms(a.harnessMsPerToolCall.p90)],
      ['  raw exec', ms(a.rawMsPerExec.median), ms(a.rawMsPerExec.p90)],
      ['  same command, one container:', '', ''],
      ['    raw exec', ms(a.execBreakdown.rawMs.median), ms(a.execBreakdown.rawMs.p90)],
      [
        '    engine exec, no timeout',
        ms(a.execBreakdown.engineWithoutTimeoutMs.median),
        ms(a.execBreakdown.engineWithoutTimeoutMs.p90),
      ],
      [
        `    engine exec${a.execBreakdown.useTimeoutCommand ? ' + timeout' : ''}`,
        ms(a.execBreakdown.engineMs.median),
        ms(a.execBreakdown.engineMs.p90),
      ],
    ]),
    `  ratio harness/raw: ${a.ratio.toFixed(2)}x of medians (${a.overheadMsPerRep >= 0 ? '+' : ''}${Math.round(a.overheadMsPerRep)} ms per rep); ` +
      `per adjacent pair ${a.pairedRatio.median.toFixed(2)}x median, ${a.pairedRatio.min.toFixed(2)}-${a.pairedRatio.max.toFixed(2)}x range`,
    `  harness phases (median ms): provision ${Math.round(phases.provision.median)}, tools ${Math.round(phases.tools.median)}, ` +
      `model+loop ${Math.round(phases.modelAndLoop.median)}, prompt+record ${Math.round(phases.promptAndRecord.median)}, ` +
      `dispose ${Math.round(phases.dispose.median)}`,
    `  raw phases (median ms): create+start ${Math.round(a.rawPhasesMs.createStart.median)}, ` +
      `30 execs ${Math.round(a.rawPhasesMs.execs.median)}, remove ${Math.round(a.rawPhasesMs.remove.median)}`,
    `  overhead by phase (harness - raw medians): provision ${signed(Math.round(phases.provision.median - a.rawPhasesMs.createStart.median))} ms, ` +
      `tools ${signed(Math.round(phases.tools.median - a.rawPhasesMs.execs.median))} ms, ` +
      `dispose ${signed(Math.round(phases.dispose.median - a.rawPhasesMs.remove.median))} ms, ` +
      `loop+prompt+record ${signed(Math.round(phases.modelAndLoop.median + phases.promptAndRecord.median))} ms`,
    `  snapshot: built in ${ms(a.snapshotPrepareMs)}; looked up again in ${a.snapshotLookupMs.median.toFixed(1)} ms (median)`,
    `  memory over the reps: rss ${signed(a.memory.rssDeltaMb)} MB (peak ${a.memory.rssPeakMb} MB), ` +
      `heapUsed ${signed(a.memory.heapUsedDeltaMb)} MB after GC (peak ${a.memory.heapUsedPeakMb} MB); ` +
      `workspace ${(a.workspaceBytesPerRep / 1024).toFixed(0)} KB per stored rep`,
  ];
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value}`;
}

/** Part (b)'s block. */
export function printThroughput(outcome: PartOutcome<ThroughputResult>): string[] {
  const title = '(b) study throughput, snapshot backend, fake Anthropic server';
  if (outcome.status !== 'ok') return [title, ...notRun(outcome)];
  const b = outcome.result;
  return [
    `${title} at ${b.latencyMs} ms latency, ${b.callsPerRep} calls per rep`,
    ...columns([
      [
        '  concurrency',
        'beside',
        'load',
        'reps',
        'wall',
        'first wave',
        'end step',
        'reps/min',
        'ideal',
        'eff.',
        'calls/s',
        'rep p50/p90',
        'call p50/p90',
        'rest of rep',
        'cpu/rep',
        'main/rep',
        'cpu',
        'loop p99',
        'heap peak',
      ],
      ...b.levels.map((level) => [
        `  ${level.concurrency}`,
        level.background ? `${level.background} busy` : 'quiet',
        `${level.loadAverage.before.toFixed(2)}→${level.loadAverage.after.toFixed(2)}`,
        level.reps,
        `${level.wallSeconds.toFixed(1)} s`,
        ms(level.firstWaveMs),
        ms(level.afterLastRepMs),
        level.repsPerMinute.toFixed(1),
        level.idealRepsPerMinute,
        `${level.efficiency.toFixed(3)}×`,
        level.providerCallsPerSecond.toFixed(2),
        `${Math.round(level.repMs.median)}/${Math.round(level.repMs.p90)} ms`,
        `${Math.round(level.callMs.median)}/${Math.round(level.callMs.p90)} ms`,
        ms(level.outsideCallsMsPerRep.median),
        ms(level.cpuMsPerRep),
        level.mainThreadCpuMsPerRep === null ? 'n/a' : ms(level.mainThreadCpuMsPerRep),
        `${Math.round(level.cpuShareOfOneCore * 100)}%`,
        ms(level.eventLoopDelayMs.p99),
        `${level.memory.heapUsedPeakMb} MB`,
      ]),
    ]),
    '  call = one provider call as the loop timed it (the server waits the latency); rest of rep = ' +
      'claim, provision, prompt, tools, storing; cpu = this process (the server runs in its own), ' +
      'main = its main thread alone (the event loop reps queue for; Linux); beside = CPU-bound ' +
      'busy-loop processes running meanwhile; load = the 1-minute load average before→after; ' +
      'first wave = from the start to the first call of the c-th rep; end step = from the last rep stored to the runner idle (completing the study, drawing its ' +
      'tables on this thread), inside wall and eff.',
    `  linear at concurrency ${linearTarget.concurrency}, quiet: ` +
      `median of ${b.atTarget.efficiencies.length} runs ${b.atTarget.median.toFixed(3)}× ` +
      `(${b.atTarget.efficiencies.map((value) => value.toFixed(3)).join(' / ')}; target ≥ ` +
      `${b.atTarget.target}×: ${b.atTarget.median >= b.atTarget.target ? 'pass' : 'MISSED'})`,
    ...(b.underLoad
      ? [
          `  linear at concurrency ${linearTarget.concurrency} beside ${b.underLoad.background} ` +
            `CPU-bound processes: median of ${b.underLoad.efficiencies.length} runs ` +
            `${b.underLoad.median.toFixed(3)}× (` +
            `${b.underLoad.efficiencies.map((value) => value.toFixed(3)).join(' / ')}; target ≥ ` +
            `${b.underLoad.target}×: ${b.underLoad.median >= b.underLoad.target ? 'pass' : 'MISSED'})`,
        ]
      : []),
    `  one SQLite autocommit write: ${b.commit.commitMs.median.toFixed(3)} ms median, ` +
      `${b.commit.commitMs.p90.toFixed(3)} ms p90 (journal ${b.commit.journalMode}, synchronous=${b.commit.synchronous})`,
    `  snapshot environment made and removed (off the event loop, as the runner provisions one): ` +
      `${b.snapshotEnvironmentMs.median.toFixed(2)} ms median, ${b.snapshotEnvironmentMs.p90.toFixed(2)} ms p90, ` +
      `${b.snapshotEnvironmentMs.max.toFixed(1)} ms max`,
    ...b.notes.map((note) => `  note: ${note}`),
  ];
}

/** Part (c)'s block. */
export function printPaperScale(outcome: PartOutcome<PaperScaleResult>): string[] {
  const title = '(c) paper-scale workspace';
  if (outcome.status !== 'ok') return [title, ...notRun(outcome)];
  const c = outcome.result;
  const w = c.workspace;
  return [
    `${title}: ${w.reps.toLocaleString('en-US')} reps, ${w.toolCalls.toLocaleString('en-US')} tool calls, ` +
      `${w.fileMb.toFixed(0)} MB (${(w.bytesPerRep / 1024).toFixed(1)} KB/rep), generated in ` +
      `${(w.generationMs / 1000).toFixed(1)} s (${w.rowsPerSecond.toLocaleString('en-US')} rows/s); ` +
      `${w.labels.toLocaleString('en-US')} mechanism labels`,
    ...printDisk(c.disk),
    `  floor: one plain scan of the rows' columns ${ms(c.floorMs.median)} median of ${c.samples}; ` +
      `full uncached read ${ms(c.studyRowsMs.median)} (heap ${c.studyRowsHeapMb} MB for the rows)`,
    ...columns([
      ['  table', 'rows', 'served p50', '÷ floor (≤ 3)', 'cold build', 'analysis only p50'],
      ...c.tables.map((table) => [
        `  ${table.name}`,
        table.rows,
        `${table.reportMs.median.toFixed(2)} ms`,
        `${table.ratioToFloor}×${table.ratioToFloor <= 3 ? '' : ' MISSED'}`,
        ms(table.coldMs.median),
        table.buildMs ? ms(table.buildMs.median) : 'from store',
      ]),
    ]),
    ...liveRefreshLines(c),
    `  replay of a ${c.replay.toolCallsPerRun}-call pair: ${c.replay.openMs.median.toFixed(0)} ms median ` +
      `(${c.replay.ratioToTarget}× the ${c.replay.targetMs} ms target${c.replay.ratioToTarget <= 1 ? '' : ', MISSED'})`,
    `  bench process RSS while it served the above (it also generated the workspace): peak ` +
      `${c.serving.rssPeakMb} MB, ${c.serving.rssEndMb} MB after (heap peak ${c.serving.heapUsedPeakMb} MB)`,
    ...coldOpenLines(c.coldOpen),
    `  check: strong@system HF % within ${c.table6Check.maxAbsDiffHfPct} pp and HELP % within ` +
      `${c.table6Check.maxAbsDiffHelpPct} pp of Table 6 on ${c.table6Check.cells}/20 cells`,
  ];
}

/** Part (c)'s engine starts: the cold open and the engine's RSS, each against its target. */
function coldOpenLines(cold: PaperScaleResult['coldOpen']): string[] {
  const verdict = (ok: boolean) => (ok ? 'pass' : 'MISSED');
  const line = (label: string, start: PaperScaleResult['coldOpen']['afterRun']) =>
    `    ${label}: first table ${ms(start.firstTableMs)} = ${start.ratio}× one plain scan ` +
    `(${ms(start.floorMs)}; target ≤ ${cold.targets.ratio}×: ${verdict(start.ratio <= cold.targets.ratio)}); ` +
    `every table ${ms(start.allTablesMs)}; RSS peak ${start.memory.rssPeakMb} MB (target ≤ ` +
    `${cold.targets.rssMb} MB: ${verdict(start.memory.rssPeakMb <= cold.targets.rssMb)})`;
  const end = cold.studyEnd;
  return [
    '  engine start (a fresh process opens the workspace, draws the first table, then every table):',
    line('after the runner drew the finished study', cold.afterRun),
    `    the runner's hook at the study's end (own process): every table in ${ms(end.tablesMs)}, ` +
      `RSS peak ${end.memory.rssPeakMb} MB (the same ≤ ${cold.targets.rssMb} MB: ` +
      `${verdict(end.memory.rssPeakMb <= cold.targets.rssMb)})`,
    `    nothing persisted (not what a run leaves; an older engine's study): first table ` +
      `${ms(cold.neverDrawn.firstTableMs)} = ${cold.neverDrawn.ratio}× one plain scan, RSS peak ` +
      `${cold.neverDrawn.memory.rssPeakMb} MB`,
  ];
}

/** Part (c)'s live-refresh lines: the full study, the tenth, their ratio against the target. */
function liveRefreshLines(c: PaperScaleResult): string[] {
  const { full, tenth, ratio, targetRatio } = c.liveRefresh;
  const reps = (value: number) => value.toLocaleString('en-US');
  return [
    `  live refresh after a batch of ${full.batchReps} landed reps (${full.tables.length} tables), ` +
      `median of ${full.batches} batches:`,
    ...columns([
      ['    study', 'refresh', 'rows', 'from nothing', 'refresh ÷ from nothing'],
      [
        `    ${reps(full.studyReps)} reps`,
        `${full.refreshMs.median.toFixed(1)} ms`,
        `${full.rowsMs.median.toFixed(1)} ms`,
        ms(full.fullRefreshMs.median),
        `${full.ratioToFull}×`,
      ],
      [
        `    ${reps(tenth.studyReps)} reps (a tenth)`,
        `${tenth.refreshMs.median.toFixed(1)} ms`,
        `${tenth.rowsMs.median.toFixed(1)} ms`,
        ms(tenth.fullRefreshMs.median),
        `${tenth.ratioToFull}×`,
      ],
    ]),
    `    ten times the study, ${ratio}× the refresh (target ≤ ${targetRatio}×: the batch's cost, ` +
      `not the study's${ratio <= targetRatio ? '' : '; MISSED'}); flip counts ` +
      `${[...new Set(full.tallies)].join('/')}, pairings ${[...new Set(full.pairings)].join('/')}`,
  ];
}
