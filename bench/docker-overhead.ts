/**
 * Part (a): harness overhead per judge rep on a real container. One item snapshot is prepared
 * from the base image; then each harness rep provisions a container from it (the runner's
 * path, `provisionEnvironment`), runs the judge loop against a zero-latency replay provider
 * that issues 30 `shell` calls and a verdict, stores the rep in a temp SQLite workspace and
 * disposes the container. Each raw rep does the same container and commands straight through
 * dockerode: create+start, 30 execs read with demuxStream (plus the inspect that yields the exit
 * code), remove. Harness and raw reps alternate so background load hits both alike.
 */
import type Docker from 'dockerode';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDockerClient } from '../src/main/engine/environments/docker/client';
import { prepareItem, type PreparedItem } from '../src/main/engine/environments/docker/prepare';
import { provisionEnvironment } from '../src/main/engine/environments/provision';
import { toolBudget } from '../src/main/engine/judge/budget';
import { prepareRep } from '../src/main/engine/judge/prepare';
import { runJudgeRep } from '../src/main/engine/runner/commit-rep';
import { createReplayProvider, type RecordedCall } from '../src/main/engine/providers/replay';
import type { ModelProvider, ModelResponse } from '../src/main/engine/providers/types';
import { openStore, type Store } from '../src/main/engine/store/database';
import { repConditionSchema } from '../src/shared/rep-condition';
import { environmentSpecSchema, suiteItemSchema, type SuiteItem } from '../src/shared/suite-format';
import {
  type DockerPartSkipped,
  dockerPartSkip,
  execBreakdown,
  rawRep,
  type ExecBreakdown,
  type RawSample,
} from './raw-docker';
import {
  MemorySampler,
  alternating,
  now,
  round,
  rounded,
  summarize,
  type MemoryReport,
} from './measure';
import type { Summary } from './measure';

/** What part (a) measured, or why it was skipped. */
export type DockerOverheadResult =
  | DockerPartSkipped
  | {
      status: 'ok';
      reps: number;
      toolCallsPerRep: number;
      snapshotPrepareMs: number;
      harnessMsPerRep: Summary;
      rawMsPerRep: Summary;
      /** Median harness rep ÷ median raw rep. */
      ratio: number;
      /** Median of harness ÷ raw over the adjacent pairs (robust to load that drifts). */
      pairedRatio: Summary;
      overheadMsPerRep: number;
      harnessPhasesMs: Record<
        'provision' | 'tools' | 'modelAndLoop' | 'promptAndRecord' | 'dispose',
        Summary
      >;
      rawPhasesMs: Record<'createStart' | 'execs' | 'remove', Summary>;
      /** A tool call as the loop timed it (runTool → DockerJudgeEnvironment.exec). */
      harnessMsPerToolCall: Summary;
      /** One command raw, through the engine's exec, and under `timeout` (interleaved). */
      execBreakdown: ExecBreakdown;
      rawMsPerExec: Summary;
      /** `prepareItem` when the snapshot already exists (what every provisioning repeats). */
      snapshotLookupMs: Summary;
      memory: MemoryReport;
      workspaceBytesPerRep: number;
    };

const toolCalls = 30;
const model = 'bench-replay';
const commands = [
  'cat README.md',
  'ls -l',
  'ls src logs data',
  'cat src/app.py',
  'wc -l data/report.csv',
  'head -n 5 data/report.csv',
  'grep -n def src/app.py',
  'cat logs/a.log',
  'find . -type f',
  'tail -n 3 data/report.csv',
];

function benchItem(nonce: string): SuiteItem {
  const python = Array.from({ length: 40 }, (_, line) =>
    line % 8 === 0
      ? `def step_${line}(rows):`
      : `    rows = [row for row in rows if row] # ${line}`,
  ).join('\n');
  const csv = [
    'id,name,total',
    ...Array.from({ length: 50 }, (_, row) => `${row},item-${row},${row * 7}`),
  ];
  return suiteItemSchema.parse({
    id: `bench-docker-${nonce}`,
    dataset: 'bench',
    substrate: 'code',
    task: 'Write data/report.csv with one row per item and its total.',
    trajectory: [
      { role: 'user', content: 'Write data/report.csv with one row per item and its total.' },
      { role: 'assistant', content: 'I wrote the report with src/app.py. Done.' },
    ],
    environment: environmentSpecSchema.parse({
      shell: true,
      files: {
        'README.md': '# Report builder\n\nRun `python3 src/app.py` to rebuild data/report.csv.\n',
        'src/app.py': `${python}\n`,
        'logs/a.log': 'INFO start\nINFO wrote 50 rows\nINFO done\n',
        'data/report.csv': `${csv.join('\n')}\n`,
        // Unique per run, so the snapshot is built (and timed) fresh and removed afterwards.
        'notes/run.txt': nonce,
      },
    }),
    gold: 'pass',
  });
}

function scriptedResponses(): ModelResponse[] {
  const usage = (turn: number) => ({ inputTokens: 1500 + turn * 250, outputTokens: 40 });
  const calls = Array.from({ length: toolCalls }, (_, turn): ModelResponse => ({
    text: '',
    toolCalls: [
      { id: `call_${turn}`, name: 'shell', input: { command: commands[turn % commands.length] } },
    ],
    stopReason: 'tool_use',
    usage: usage(turn),
    model,
  }));
  const verdict: ModelResponse = {
    text: '',
    toolCalls: [
      {
        id: 'call_verdict',
        name: 'submit_verdict',
        input: {
          verdict: 'pass',
          confidence: 0.9,
          rationale: 'report.csv has 50 rows with totals.',
        },
      },
    ],
    stopReason: 'tool_use',
    usage: usage(toolCalls),
    model,
  };
  return [...calls, verdict];
}

/** A provider that answers from a script and records each exchange for the replay provider. */
function recordingProvider(
  responses: readonly ModelResponse[],
  recordings: RecordedCall[],
): ModelProvider {
  return {
    kind: 'replay',
    complete(request) {
      const response = responses[recordings.length];
      if (!response) return Promise.reject(new Error('the bench script ran out'));
      recordings.push({ request: structuredClone(request), response: structuredClone(response) });
      return Promise.resolve(structuredClone(response));
    },
  };
}

interface Context {
  docker: Docker;
  store: Store;
  item: SuiteItem;
  prepared: PreparedItem;
}

interface HarnessSample {
  total: number;
  provision: number;
  tools: number;
  modelAndLoop: number;
  promptAndRecord: number;
  dispose: number;
  perToolCall: number[];
}

async function harnessRep(context: Context, provider: ModelProvider): Promise<HarnessSample> {
  const { item } = context;
  const started = now();
  const provisioned = await provisionEnvironment(item.environment, item, {
    backend: 'docker',
    docker: context.docker,
  });
  const provisionedAt = now();
  let storedAt = provisionedAt;
  let result;
  try {
    const condition = repConditionSchema.parse({ dimension: 'task_success' });
    const prepared = prepareRep(item, [], condition, provisioned.environment);
    result = await runJudgeRep(context.store, {
      input: prepared.input,
      provider,
      providerKind: provider.kind,
      model,
      budget: toolBudget(40),
      condition: prepared.record,
      suiteId: 'bench',
    });
  } finally {
    storedAt = now();
    await provisioned.dispose();
  }
  const disposedAt = now();
  const { transcript } = result;
  const failed = transcript.toolCalls.filter((call) => !call.output.startsWith('exit code: 0'));
  if (
    transcript.outcome !== 'verdict' ||
    transcript.toolCalls.length !== toolCalls ||
    failed.length
  ) {
    throw new Error(
      `bench rep went wrong: outcome ${transcript.outcome}, ${transcript.toolCalls.length} tool ` +
        `calls, first failure: ${failed[0]?.output ?? 'none'}`,
    );
  }
  const tools = transcript.toolCalls.reduce((sum, call) => sum + call.durationMs, 0);
  const loop = transcript.totals.durationMs;
  return {
    total: disposedAt - started,
    provision: provisionedAt - started,
    tools,
    modelAndLoop: loop - tools,
    promptAndRecord: storedAt - provisionedAt - loop,
    dispose: disposedAt - storedAt,
    perToolCall: transcript.toolCalls.map((call) => call.durationMs),
  };
}

/** Runs part (a) with `reps` harness reps and as many raw reps (plus one warm-up of each). */
export async function benchDockerOverhead(
  reps: number,
  log: (line: string) => void,
): Promise<DockerOverheadResult> {
  const docker = createDockerClient();
  const skip = await dockerPartSkip(docker);
  if (skip) return skip;
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-a-'));
  const store = openStore(join(dir, 'cuelab.sqlite'));
  const item = benchItem(`${process.pid}-${Date.now()}`);
  let prepared: PreparedItem | undefined;
  try {
    const prepareStarted = now();
    prepared = await prepareItem(item.environment, item.id, { docker });
    const snapshotPrepareMs = now() - prepareStarted;
    log(`  snapshot ${prepared.image} prepared in ${Math.round(snapshotPrepareMs)} ms`);
    const context: Context = { docker, store, item, prepared };

    // Warm-up: record the replay script from a scripted run, and warm the raw path.
    const recordings: RecordedCall[] = [];
    await harnessRep(context, recordingProvider(scriptedResponses(), recordings));
    await rawRep(docker, prepared, commands, toolCalls);

    const ready = prepared;
    const memory = new MemorySampler();
    memory.begin();
    const measured = await alternating(
      reps,
      () => harnessRep(context, createReplayProvider(recordings)),
      () => rawRep(docker, ready, commands, toolCalls),
      (rep, last, lastRaw) =>
        log(
          `  rep ${rep + 1}/${reps}: harness ${Math.round(last.total)} ms, raw ${Math.round(lastRaw.total)} ms`,
        ),
    );
    const harness: HarnessSample[] = measured.first;
    const raw: RawSample[] = measured.second;
    const memoryReport = memory.end();

    const lookups: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const started = now();
      await prepareItem(item.environment, item.id, { docker });
      lookups.push(now() - started);
    }

    const storedReps = reps + 1;
    const breakdown = await execBreakdown(docker, prepared, commands, 30);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = fileSize(store.path);
    const harnessMs = summarize(harness.map((sample) => sample.total));
    const rawMs = summarize(raw.map((sample) => sample.total));
    const phase = (pick: (sample: HarnessSample) => number) =>
      rounded(summarize(harness.map(pick)));
    const rawPhase = (pick: (sample: RawSample) => number) => rounded(summarize(raw.map(pick)));
    return {
      status: 'ok',
      reps,
      toolCallsPerRep: toolCalls,
      snapshotPrepareMs: Math.round(snapshotPrepareMs),
      harnessMsPerRep: rounded(harnessMs),
      rawMsPerRep: rounded(rawMs),
      ratio: round(harnessMs.median / rawMs.median, 2),
      pairedRatio: rounded(
        summarize(harness.map((sample, index) => sample.total / (raw[index]?.total ?? Number.NaN))),
        2,
      ),
      overheadMsPerRep: round(harnessMs.median - rawMs.median),
      harnessPhasesMs: {
        provision: phase((sample) => sample.provision),
        tools: phase((sample) => sample.tools),
        modelAndLoop: phase((sample) => sample.modelAndLoop),
        promptAndRecord: phase((sample) => sample.promptAndRecord),
        dispose: phase((sample) => sample.dispose),
      },
      rawPhasesMs: {
        createStart: rawPhase((sample) => sample.createStart),
        execs: rawPhase((sample) => sample.execs),
        remove: rawPhase((sample) => sample.remove),
      },
      harnessMsPerToolCall: rounded(summarize(harness.flatMap((sample) => sample.perToolCall))),
      execBreakdown: breakdown,
      rawMsPerExec: rounded(summarize(raw.flatMap((sample) => sample.perExec))),
      snapshotLookupMs: rounded(summarize(lookups)),
      memory: memoryReport,
      workspaceBytesPerRep: Math.round(bytes / storedReps),
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    if (prepared) {
      await docker
        .getImage(prepared.image)
        .remove({ force: true })
        .catch(() => undefined);
    }
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
