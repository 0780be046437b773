/**
 * Part (s): the results workbench at paper scale, served by a real `cuelab serve` (the built
 * CLI): the paper-scale workspace of part (c) with stored messages added to every rep (through
 * the judge_messages view, so they are compacted and indexed as the runner's are), then the
 * first workbench page, a later page, a sort by turns, a transcript search that matches nothing
 * and one that matches, each timed, while a health request is sent every 20 ms and its
 * latency recorded (the engine answers both on one thread). The machine's load is printed
 * beside each figure.
 *
 * Options (bench/run.ts): --messages N per rep (default 20: 1.41 M messages, the issue's
 * workspace), --workspace-file PATH to start from a copy of a workspace generated before
 * (part (c)'s generator, at the current schema) instead of generating one.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/main/engine/store/database';
import { seededRandom, type Random } from '../src/main/engine/random';
import { startServeProcess, type ServeProcess } from '../test/helpers/serve-process';
import { now, quantile, round } from './measure';
import { generatePaperWorkspace } from './paper-workspace';

/** One timed request and the health latencies sent while it ran. */
export interface TimedRequest {
  name: string;
  ms: number;
  rows: number;
  health: { count: number; p50: number; p99: number; max: number };
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

/** A word that one message in about 200 holds (the matching search). */
const RARE_WORD = 'quarantined';
/** A word no message holds (the search that matches nothing). */
const ABSENT_WORD = 'zyxwvutsrq';

/** A vocabulary of pronounceable words, so the index has a realistic number of terms. */
function vocabulary(random: Random, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ten', 'sar', 'vo', 'ri', 'pel', 'dun', 'ex', 'qua', 'zo'];
  const words = new Set<string>();
  while (words.size < size) {
    const parts = 2 + Math.floor(random() * 3);
    let word = '';
    for (let index = 0; index < parts; index += 1)
      word += syllables[Math.floor(random() * syllables.length)] ?? '';
    words.add(word);
  }
  return [...words];
}

function messageText(random: Random, words: readonly string[], seq: number): string {
  const length = 20 + Math.floor(random() * 60);
  const parts: string[] = [seq % 2 === 0 ? 'Tool output:' : 'I read the file and'];
  for (let index = 0; index < length; index += 1)
    parts.push(words[Math.floor(random() * words.length)] ?? 'word');
  if (random() < 0.005) parts.splice(3, 0, RARE_WORD);
  return parts.join(' ');
}

/** Adds `perRep` stored messages to every rep, a transaction per 2,000 reps. */
function addMessages(
  path: string,
  perRep: number,
  log: (line: string) => void,
): { reps: number; written: number } {
  const store = openStore(path);
  const random = seededRandom(5, 'bench', 'messages');
  const words = vocabulary(random, 4000);
  const repIds = store.db.prepare('SELECT id FROM judge_reps ORDER BY rowid').pluck().all();
  const insert = store.db.prepare(
    `INSERT INTO judge_messages (rep_id, seq, role, content, is_error)
     VALUES (?, ?, ?, ?, 0)`,
  );
  let written = 0;
  const batch = store.db.transaction((ids: unknown[]) => {
    for (const id of ids)
      for (let seq = 0; seq < perRep; seq += 1) {
        insert.run(id, seq, seq % 2 === 0 ? 'tool' : 'assistant', messageText(random, words, seq));
        written += 1;
      }
  });
  for (let start = 0; start < repIds.length; start += 2000) {
    batch(repIds.slice(start, start + 2000));
    if (start % 20_000 === 0) log(`  messages: ${String(written)} written`);
  }
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { reps: repIds.length, written };
}

/** Sends a health request every 20 ms until stopped; resolves to their latencies. */
function healthProbe(serve: ServeProcess): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = now();
      await serve.lab.health({});
      latencies.push(now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

function spread(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** Runs part (s). */
export async function benchWorkbenchSearch(
  log: (line: string) => void,
  options: { messagesPerRep: number; workspaceFile?: string | undefined },
): Promise<WorkbenchSearchResult> {
  const workspace = mkdtempSync(join(tmpdir(), 'cuelab-bench-search-'));
  const path = join(workspace, 'cuelab.sqlite');
  try {
    if (options.workspaceFile) copyFileSync(options.workspaceFile, path);
    else log(`  generated ${String(generatePaperWorkspace(path).reps)} reps`);
    const messageStarted = now();
    const { reps, written: messages } = addMessages(path, options.messagesPerRep, log);
    const messageMs = Math.round(now() - messageStarted);
    log(`  ${String(messages)} messages written and indexed in ${String(messageMs)} ms`);
    const serve = await startServeProcess(workspace);
    try {
      const quiet = healthProbe(serve);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const alone = spread(await quiet.stop());
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
        const probe = healthProbe(serve);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const started = now();
        const answer = await serve.lab.queryReps({ studyId, ...filters });
        const ms = round(now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const health = spread(await probe.stop());
        if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
        const rows = answer.value.rows.length;
        const load = round(loadavg()[0] ?? 0, 2);
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
        fileBytes: statSync(path).size,
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
