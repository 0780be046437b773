/**
 * Reading stored judge reps back: where a rep belongs, its transcript (messages and tool
 * calls) and its JSON columns parsed, for the meta-judge (metajudge/run-record.ts), the
 * Inspect export (export/inspect-log.ts) and the flip finder. The tables are STRICT with
 * CHECKs (migration 2), so scalar columns hold their declared types; JSON columns are checked
 * here.
 */
import { z } from 'zod';
import type { Store } from './database';
import {
  type ColumnPlace,
  parseJsonColumn,
  readJsonColumn,
  readJsonRecordColumn,
  readOptionalJsonColumn,
} from './json-column';
import { storedTextSql } from './text-blobs';

/** Where a rep belongs. */
export interface RepOrigin {
  /** Null for a rep judged outside a study (`cuelab judge`). */
  studyId: string | null;
  suiteId: string;
  itemId: string;
}

/** The study, suite and item of a rep; undefined when there is no such rep. */
export function repOrigin(store: Store, repId: string): RepOrigin | undefined {
  const row = store.db
    .prepare('SELECT study_id, suite_id, item_id FROM judge_reps WHERE id = ?')
    .get(repId) as { study_id: string | null; suite_id: string; item_id: string } | undefined;
  return row && { studyId: row.study_id, suiteId: row.suite_id, itemId: row.item_id };
}

/** The synthetic judge's record of a rep (simulation/provider.ts); null for a real model's. */
export function repSimulationRecord(store: Store, repId: string): Record<string, unknown> | null {
  const text = store.db
    .prepare('SELECT simulation_json FROM judge_reps WHERE id = ?')
    .pluck()
    .get(repId);
  if (typeof text !== 'string') return null;
  return readJsonRecordColumn(text, { table: 'judge_reps', row: repId, field: 'simulation_json' });
}

/** The study a rep's job belongs to; undefined for a rep without a job. */
export function jobStudyOfRep(store: Store, repId: string): string | undefined {
  const id = store.db.prepare('SELECT study_id FROM jobs WHERE rep_id = ?').pluck().get(repId);
  return typeof id === 'string' ? id : undefined;
}

/** One stored tool call a model asked for inside an assistant message (judge/loop.ts). */
const messageToolCallsSchema = z.array(
  z.looseObject({ id: z.string(), name: z.string(), input: z.unknown() }),
);

/** One message of a rep's conversation, after the system prompt. */
export interface StoredMessage {
  seq: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** The assistant's tool calls; empty otherwise. */
  toolCalls: { id: string; name: string; input: unknown }[];
  toolCallId: string | null;
  toolName: string | null;
  isError: boolean;
}

interface MessageRow {
  seq: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls_json: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: number;
}

/** A rep's messages in order. */
export function repMessages(store: Store, repId: string): StoredMessage[] {
  const rows = store.db
    .prepare(
      `SELECT seq, role, content, tool_calls_json, tool_call_id, tool_name, is_error
         FROM judge_messages WHERE rep_id = ? ORDER BY seq`,
    )
    .all(repId) as MessageRow[];
  return rows.map((row) => ({
    seq: row.seq,
    role: row.role,
    content: row.content,
    toolCalls:
      row.tool_calls_json === null
        ? []
        : parseJsonColumn(messageToolCallsSchema, row.tool_calls_json, {
            table: 'judge_messages',
            row: `${repId}/${row.seq}`,
            field: 'tool_calls_json',
          }),
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    isError: row.is_error === 1,
  }));
}

/** One tool call the judge made, with its output. */
export interface StoredToolCall {
  seq: number;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
}

/** A rep's tool calls in order. */
export function repToolCalls(store: Store, repId: string): StoredToolCall[] {
  const rows = store.db
    .prepare(
      'SELECT seq, name, input_json, output, is_error FROM judge_tool_calls WHERE rep_id = ? ORDER BY seq',
    )
    .all(repId) as {
    seq: number;
    name: string;
    input_json: string;
    output: string;
    is_error: number;
  }[];
  return rows.map((row) => ({
    seq: row.seq,
    name: row.name,
    input: readJsonColumn(row.input_json, {
      table: 'judge_tool_calls',
      row: `${repId}/${row.seq}`,
      field: 'input_json',
    }),
    output: row.output,
    isError: row.is_error === 1,
  }));
}

/** Reasoning the model returned with one turn (0-based), as stored (migration 0013). */
export interface StoredReasoning {
  turn: number;
  text: string;
}

/** The turns of a rep that came back with reasoning, in order. */
export function repReasoning(store: Store, repId: string): StoredReasoning[] {
  return store.db
    .prepare(
      'SELECT turn, reasoning AS text FROM judge_turns WHERE rep_id = ? AND reasoning IS NOT NULL ORDER BY turn',
    )
    .all(repId) as StoredReasoning[];
}

/** A stored rep's own row, its JSON columns parsed. */
export interface StoredRep {
  id: string;
  itemId: string;
  suiteId: string;
  provider: string;
  model: string;
  simulated: boolean;
  /** The condition as run (contract/rep-record.ts RepIdentity.condition). */
  condition: Record<string, unknown>;
  outcome: string;
  /** The parsed verdict and final (post-gate) verdict; null when none. */
  verdict: unknown;
  finalVerdict: unknown;
  systemPrompt: string;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  error: string | null;
  createdAt: string;
}

interface RepRow {
  id: string;
  item_id: string;
  suite_id: string;
  provider: string;
  model: string;
  simulated: number;
  condition_json: string;
  outcome: string;
  verdict_json: string | null;
  final_verdict_json: string | null;
  system_prompt: string;
  input_tokens: number;
  output_tokens: number;
  duration_ms: number;
  error: string | null;
  created_at: string;
}

const REP_COLUMNS = `id, item_id, suite_id, provider, model, simulated, condition_json, outcome,
  verdict_json, final_verdict_json,
  ${storedTextSql('system_prompt', 'system_prompt_blob')} AS system_prompt, input_tokens,
  output_tokens, duration_ms, error, created_at`;

type KeyRow = Pick<
  RepRow,
  'id' | 'item_id' | 'suite_id' | 'provider' | 'model' | 'simulated' | 'condition_json'
>;

function storedRepKey(row: KeyRow): StoredRepKey {
  return {
    id: row.id,
    itemId: row.item_id,
    suiteId: row.suite_id,
    provider: row.provider,
    model: row.model,
    simulated: row.simulated === 1,
    condition: readJsonRecordColumn(row.condition_json, {
      table: 'judge_reps',
      row: row.id,
      field: 'condition_json',
    }),
  };
}

function storedRep(row: RepRow): StoredRep {
  const place = (field: string): ColumnPlace => ({ table: 'judge_reps', row: row.id, field });
  return {
    ...storedRepKey(row),
    outcome: row.outcome,
    verdict: readOptionalJsonColumn(row.verdict_json, place('verdict_json')),
    finalVerdict: readOptionalJsonColumn(row.final_verdict_json, place('final_verdict_json')),
    systemPrompt: row.system_prompt,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    durationMs: row.duration_ms,
    error: row.error,
    createdAt: row.created_at,
  };
}

/** One stored rep; undefined when there is no such rep. */
export function readStoredRep(store: Store, repId: string): StoredRep | undefined {
  const row = store.db.prepare(`SELECT ${REP_COLUMNS} FROM judge_reps WHERE id = ?`).get(repId) as
    RepRow | undefined;
  return row && storedRep(row);
}

/** What groups a rep into an export's log, without its texts or verdicts. */
export type StoredRepKey = Pick<
  StoredRep,
  'id' | 'itemId' | 'suiteId' | 'provider' | 'model' | 'simulated' | 'condition'
>;

/** A study's reps' keys in the order they were stored (one narrow read of each row). */
export function studyStoredRepKeys(store: Store, studyId: string): StoredRepKey[] {
  const rows = store.db
    .prepare(
      `SELECT id, item_id, suite_id, provider, model, simulated, condition_json
         FROM judge_reps WHERE study_id = ? ORDER BY created_at, id`,
    )
    .all(studyId) as KeyRow[];
  return rows.map(storedRepKey);
}

/** A study's reps in the order they were stored. */
export function studyStoredReps(store: Store, studyId: string): StoredRep[] {
  const rows = store.db
    .prepare(`SELECT ${REP_COLUMNS} FROM judge_reps WHERE study_id = ? ORDER BY created_at, id`)
    .all(studyId) as RepRow[];
  return rows.map(storedRep);
}
