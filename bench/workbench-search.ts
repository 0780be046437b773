/**
 * Part (s): the results workbench at paper scale, served by a real `cuelab serve` (the built
 * CLI): the paper-scale workspace of part (c) with stored messages added to every rep
 * (stored-messages.ts: through the judge_messages view, so they are compacted and indexed as
 * the runner's are), then the first workbench page, a later page, a sort by turns, a
 * transcript search that matches nothing and ones that match, each timed, while a health
 * request is sent every 20 ms and its latency recorded (health-probe.ts). The machine's load
 * is printed beside each figure. Part (e) measures the same engine during its heavier jobs.
 *
 * Options (bench/run.ts): --messages N per rep (default 20: 1.41 M messages, the issue's
 * workspace), --workspace-file PATH to start from a copy of a workspace generated before
 * (part (c)'s generator, at the current schema) instead of generating one;
 * CUELAB_BENCH_WORKSPACES=DIR keeps the generated one in DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess } from '../test/helpers/serve-process';
import { healthAlone, probed, type HealthSpread } from './health-probe';
import { round } from './measure';
import { ABSENT_WORD, RARE_WORD, messagesWorkspace } from './stored-messages';

/** One timed request and the health latencies sent while it ran. */
export interface TimedRequest {
  name: string;
  ms: number;
  rows: number;
  health: HealthSpread;
  load: number;
}

/** What part (s) measured. */
export interface WorkbenchSearchResult {
  reps: number;
  messages: number;
  messageMs: number;
  fileBytes: number;
  healthAloneMs: { p50: number; p99: number };
  requests: TimedRequest[];
}

/** Runs part (s). */
export async function benchWorkbenchSearch(
  log: (line: string) => void,
  options: { messagesPerRep: number; workspaceFile?: string | undefined },
): Promise<WorkbenchSearchResult> {
  const workspace = mkdtempSync(join(tmpdir(), 'cuelab-bench-search-'));
  const path = join(workspace, 'cuelab.sqlite');
  try {
    const made = messagesWorkspace(
      path,
      { perRep: options.messagesPerRep, workspaceFile: options.workspaceFile },
      log,
    );
    const { reps, messages, messageMs } = made;
    const serve = await startServeProcess(workspace);
    try {
      const alone = await healthAlone(serve, 1000);
      const studyId = 'paper-scale';
      const requests: TimedRequest[] = [];
      const cases: [string, Record<string, unknown>][] = [
        ['first page', {}],
        ['page 11', { offset: 500 }],
        ['sorted by turns', { sort: 'turns', descending: true }],
        ['search matching nothing', { search: ABSENT_WORD }],
        ['search matching 1 message in 200', { search: RARE_WORD }],
        ['search "tool output" phrase', { search: '"tool output"' }],
        ['search prefix quaran*', { search: 'quaran*' }],
      ];
      for (const [name, filters] of cases) {
        const {
          ms,
          value: answer,
          health,
          load,
        } = await probed(serve, () => serve.lab.queryReps({ studyId, ...filters }));
        if (answer instanceof Error) throw answer;
        if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
        const rows = answer.value.rows.length;
        requests.push({ name, ms, rows, health, load });
        log(
          `  ${name}: ${String(ms)} ms, ${String(rows)} rows; health p50 ${String(health.p50)} ms, ` +
            `p99 ${String(health.p99)} ms, max ${String(health.max)} ms (load ${String(load)})`,
        );
      }
      return {
        reps,
        messages,
        messageMs,
        fileBytes: made.fileBytes,
        healthAloneMs: { p50: alone.p50, p99: alone.p99 },
        requests,
      };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** The summary lines of part (s). */
export function printWorkbenchSearch(result: WorkbenchSearchResult): string[] {
  return [
    `(s) workbench at ${String(result.reps)} reps, ${String(result.messages)} stored messages ` +
      `(${String(round(result.fileBytes / 1e6))} MB); health alone p50 ${String(result.healthAloneMs.p50)} ms, ` +
      `p99 ${String(result.healthAloneMs.p99)} ms`,
    ...result.requests.map(
      (request) =>
        `  ${request.name}: ${String(request.ms)} ms (target < 500 page, < 2000 search); ` +
        `health p99 ${String(request.health.p99)} ms, max ${String(request.health.max)} ms; load ${String(request.load)}`,
    ),
  ];
}
