/**
 * Part (r): what key redaction costs per statement. The workspace connection redacts every
 * string it binds (store/redacting-statements.ts); its floor is the same statement on a plain
 * better-sqlite3 connection to the same file. Two statements the runner makes by the thousand:
 * a write with a rep's typical bound values (a job id, a request hash, a 2 KB JSON reply, a
 * date) and a read by two ids. Blocks of each take turns, so drift on a shared machine falls
 * on both; writes run a block to a transaction, as the runner stores a rep. The process knows
 * two keys (remembered, as a provider's keys are), so the known-key scan does real work.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rememberKeys } from '../src/main/engine/secrets';
import { openStore } from '../src/main/engine/store/database';
import { now, round, summarize } from './measure';

/** One statement's cost with and without redaction. */
export interface RedactionCostRow {
  statement: string;
  /** Median µs per statement on the workspace (redacting) connection. */
  redactingMicros: number;
  /** The floor: median µs per statement on a plain connection. */
  plainMicros: number;
  /** redactingMicros ÷ plainMicros. */
  ratio: number;
}

/** Part (r)'s result. */
export interface RedactionCostResult {
  rows: RedactionCostRow[];
  statementsPerBlock: number;
  blocks: number;
  /** The machine's 1-minute load average before and after. */
  loadAverage: { before: number; after: number };
}

const statementsPerBlock = 400;
const blocks = 25;

/** A provider reply as the call cache stores it: about 2 KB of JSON. */
function replyJson(index: number): string {
  return JSON.stringify({
    text: `I listed the project's files (call ${index}). `.repeat(12),
    toolCalls: [{ id: `toolu_${index}`, name: 'list_dir', input: { path: 'logs/' } }],
    stopReason: 'tool_use',
    usage: { inputTokens: 1843, outputTokens: 212 },
    model: 'claude-sonnet-4-6',
    reasoningBlocks: [
      { type: 'thinking', thinking: 'The logs folder holds both files. '.repeat(20) },
    ],
  });
}

const hash = 'f3c5a1e09b7d4c2a8e6f0b1d3c5e7a9b2d4f6e8a0c1b3d5f7e9a2c4e6b8d0f1a';
const studyId = '3f2b9c1e-7d4a-4e8b-9c0f-1a2b3c4d5e6f';
const createdAt = '2026-12-04T13:10:00.000Z';

/** Runs part (r). */
export function benchRedactionCost(log: (line: string) => void): Promise<RedactionCostResult> {
  const before = loadavg()[0] ?? 0;
  rememberKeys({
    ANTHROPIC_API_KEY: 'sk-ant-api03-benchonlyNotARealKey0123456789abcdefghijklmnop',
    OPENAI_API_KEY: 'sk-proj-benchonlyNotARealKey0123456789abcdefghij',
  });
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-r-'));
  const store = openStore(join(dir, 'cuelab.sqlite'));
  const plain = new Database(store.path);
  try {
    store.db.exec(`CREATE TABLE bench_calls (job_id INTEGER NOT NULL, seq INTEGER NOT NULL,
      study_id TEXT NOT NULL, request_hash TEXT NOT NULL, response_json TEXT NOT NULL,
      created_at TEXT NOT NULL, PRIMARY KEY (job_id, seq)) STRICT`);
    const replies = Array.from({ length: statementsPerBlock }, (_, index) => replyJson(index));
    const writeSql = `INSERT OR REPLACE INTO bench_calls (job_id, seq, study_id, request_hash,
      response_json, created_at) VALUES (?, ?, ?, ?, ?, ?)`;
    const readSql =
      'SELECT request_hash, created_at FROM bench_calls WHERE study_id = ? AND request_hash = ?';
    const connections = { redacting: store.db, plain };
    const statements = {
      write: {
        redacting: store.db.prepare(writeSql),
        plain: plain.prepare(writeSql),
      },
      read: {
        redacting: store.db.prepare(readSql),
        plain: plain.prepare(readSql),
      },
    };
    const block = (kind: 'write' | 'read', mode: 'redacting' | 'plain'): number => {
      const statement = statements[kind][mode];
      const started = now();
      if (kind === 'write')
        connections[mode].transaction(() => {
          for (let index = 0; index < statementsPerBlock; index += 1)
            statement.run(index, 0, studyId, hash, replies[index], createdAt);
        })();
      else for (let index = 0; index < statementsPerBlock; index += 1) statement.get(studyId, hash);
      return ((now() - started) * 1000) / statementsPerBlock;
    };
    const rows: RedactionCostRow[] = [];
    for (const kind of ['write', 'read'] as const) {
      // Warm-up (not reported): JIT and the page cache.
      block(kind, 'redacting');
      block(kind, 'plain');
      const samples = { redacting: [] as number[], plain: [] as number[] };
      for (let turn = 0; turn < blocks; turn += 1) {
        const order =
          turn % 2 === 0 ? (['redacting', 'plain'] as const) : (['plain', 'redacting'] as const);
        for (const mode of order) samples[mode].push(block(kind, mode));
      }
      const redactingMicros = summarize(samples.redacting).median;
      const plainMicros = summarize(samples.plain).median;
      const row = {
        statement:
          kind === 'write'
            ? 'write: 6 values (2 ints, a uuid, a 64-hex hash, 2 KB JSON, a date)'
            : 'read: by a uuid and a 64-hex hash',
        redactingMicros: round(redactingMicros, 2),
        plainMicros: round(plainMicros, 2),
        ratio: round(redactingMicros / plainMicros, 2),
      };
      log(
        `  ${row.statement}: ${row.redactingMicros} µs redacting, ${row.plainMicros} µs plain ` +
          `(floor) = ${row.ratio.toFixed(2)}×`,
      );
      rows.push(row);
    }
    const after = loadavg()[0] ?? 0;
    log(`  load ${round(before, 2)} -> ${round(after, 2)}`);
    return Promise.resolve({
      rows,
      statementsPerBlock,
      blocks,
      loadAverage: { before: round(before, 2), after: round(after, 2) },
    });
  } finally {
    plain.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Part (r)'s block of the summary. */
export function printRedactionCost(result: RedactionCostResult): string[] {
  return [
    `(r) key redaction per statement, beside the same statement on a plain connection ` +
      `(median of ${result.blocks} blocks of ${result.statementsPerBlock}; load ` +
      `${result.loadAverage.before} -> ${result.loadAverage.after})`,
    ...result.rows.map(
      (row) =>
        `  ${row.statement}: ${row.redactingMicros} µs against ${row.plainMicros} µs = ` +
        `${row.ratio.toFixed(2)}× the floor (redaction ${round(row.redactingMicros - row.plainMicros, 2)} µs)`,
    ),
  ];
}
