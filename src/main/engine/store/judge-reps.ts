/**
 * Storing judge reps: one row per rep plus its messages, model calls and tool calls, written
 * in one transaction so a rep is either fully recorded or not at all.
 */
import { randomUUID } from 'node:crypto';
import type { RepRecord } from '../contract';
import { statement, type Store } from './database';
import { readJsonColumn } from './json-column';
import { compactTextColumn } from './rep-text-columns';
import { logicalRepRow, REP_ROWS_SQL } from './text-blobs';

type AssistantEntry = Extract<RepRecord['transcript']['messages'][number], { role: 'assistant' }>;

/**
 * The reasoning of one assistant message as text: the server's reasoning field or `<think>`
 * text, else the text of Anthropic thinking blocks (redacted blocks carry none); null when none.
 */
function reasoningText(entry: AssistantEntry): string | null {
  if (entry.reasoning?.trim()) return entry.reasoning;
  const thinking = (entry.reasoningBlocks ?? []).flatMap((block) => {
    const text = (block as { thinking?: unknown } | null)?.thinking;
    return typeof text === 'string' && text.trim() ? [text] : [];
  });
  return thinking.length ? thinking.join('\n\n') : null;
}

/** Stores a finished rep; returns its id. */
export function saveJudgeRep(store: Store, record: RepRecord): string {
  const id = randomUUID();
  const { transcript: t } = record;
  const db = store.db;
  db.transaction(() => {
    const system = compactTextColumn(store, t.system);
    const tools = compactTextColumn(store, JSON.stringify(t.tools));
    statement(
      store,
      `INSERT INTO judge_reps (id, study_id, suite_id, item_id, provider, model, simulated,
         condition_json, outcome, verdict_json, final_verdict_json, gate_json, verdict_source,
         verdict_problems_json, repair_used, system_prompt, system_prompt_blob, tools_json,
         tools_json_blob, cue_spans_json, input_tokens, output_tokens, cost_usd, tool_results,
         turns, duration_ms, simulation_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      record.studyId ?? null,
      record.suiteId,
      record.itemId,
      record.provider,
      record.model,
      record.simulated ? 1 : 0,
      JSON.stringify(record.condition),
      t.outcome,
      t.verdict ? JSON.stringify(t.verdict) : null,
      record.finalVerdict ? JSON.stringify(record.finalVerdict) : null,
      record.gate === undefined || record.gate === null ? null : JSON.stringify(record.gate),
      t.verdictSource,
      JSON.stringify(t.verdictProblems),
      t.repairUsed ? 1 : 0,
      system.text,
      system.blob,
      tools.text,
      tools.blob,
      JSON.stringify(record.cueSpans),
      t.totals.inputTokens,
      t.totals.outputTokens,
      t.totals.costUsd,
      t.totals.toolResults,
      t.totals.turns,
      t.totals.durationMs,
      record.simulation === undefined ? null : JSON.stringify(record.simulation),
      new Date().toISOString(),
    );
    const message = statement(
      store,
      `INSERT INTO judge_messages (rep_id, seq, role, content, tool_calls_json, tool_call_id, tool_name, is_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    t.messages.forEach((entry, seq) => {
      if (entry.role === 'tool') {
        message.run(
          id,
          seq,
          'tool',
          entry.content,
          null,
          entry.toolCallId,
          entry.toolName,
          entry.isError ? 1 : 0,
        );
      } else if (entry.role === 'assistant') {
        message.run(
          id,
          seq,
          'assistant',
          entry.content,
          entry.toolCalls ? JSON.stringify(entry.toolCalls) : null,
          null,
          null,
          0,
        );
      } else {
        message.run(id, seq, 'user', entry.content, null, null, null, 0);
      }
    });
    const turn = statement(
      store,
      `INSERT INTO judge_turns (rep_id, turn, started_at, latency_ms, input_tokens, output_tokens,
         cost_usd, stop_reason, attempts, temperature_sent, reasoning)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Turn k answered with the k-th assistant message: its reasoning is that turn's.
    const reasoning = t.messages.flatMap((entry) =>
      entry.role === 'assistant' ? [reasoningText(entry)] : [],
    );
    for (const entry of t.turns) {
      turn.run(
        id,
        entry.index,
        entry.startedAt,
        entry.latencyMs,
        entry.usage.inputTokens,
        entry.usage.outputTokens,
        entry.costUsd,
        entry.stopReason,
        entry.attempts,
        entry.temperatureSent ? 1 : 0,
        reasoning[entry.index] ?? null,
      );
    }
    const call = statement(
      store,
      `INSERT INTO judge_tool_calls (rep_id, seq, turn, call_id, name, input_json, output, is_error,
         duration_ms, result_number, stop_directive) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    t.toolCalls.forEach((entry, seq) => {
      call.run(
        id,
        seq,
        entry.turn,
        entry.id,
        entry.name,
        JSON.stringify(entry.input ?? null),
        entry.output,
        entry.isError ? 1 : 0,
        entry.durationMs,
        entry.resultNumber,
        entry.stopDirective ? 1 : 0,
      );
    });
  })();
  return id;
}

/** A stored rep, as `cuelab judge --json` prints it. */
export function loadJudgeRep(store: Store, id: string): Record<string, unknown> | null {
  const row = store.db.prepare(`${REP_ROWS_SQL} WHERE r.id = ?`).get(id) as
    Record<string, unknown> | undefined;
  if (!row) return null;
  const rep = logicalRepRow(row);
  // Every JSON column of the rep, parsed; a damaged one names its table, row and field.
  const parse = (value: unknown, table = 'judge_reps', row = id, field = 'a JSON column') =>
    typeof value === 'string' ? readJsonColumn(value, { table, row, field }) : value;
  const messages = store.db
    .prepare('SELECT * FROM judge_messages WHERE rep_id = ? ORDER BY seq')
    .all(id);
  const turns = store.db
    .prepare('SELECT * FROM judge_turns WHERE rep_id = ? ORDER BY turn')
    .all(id);
  const toolCalls = store.db
    .prepare('SELECT * FROM judge_tool_calls WHERE rep_id = ? ORDER BY seq')
    .all(id) as Record<string, unknown>[];
  return {
    ...rep,
    condition_json: undefined,
    condition: parse(rep.condition_json, 'judge_reps', id, 'condition_json'),
    verdict: parse(rep.verdict_json, 'judge_reps', id, 'verdict_json'),
    final_verdict: parse(rep.final_verdict_json, 'judge_reps', id, 'final_verdict_json'),
    gate: parse(rep.gate_json, 'judge_reps', id, 'gate_json'),
    simulation: parse(rep.simulation_json, 'judge_reps', id, 'simulation_json'),
    tools: parse(rep.tools_json, 'judge_reps', id, 'tools_json'),
    cue_spans: parse(rep.cue_spans_json, 'judge_reps', id, 'cue_spans_json'),
    verdict_problems: parse(rep.verdict_problems_json, 'judge_reps', id, 'verdict_problems_json'),
    messages,
    turns,
    tool_calls: toolCalls.map((row) => ({
      ...row,
      input: parse(row.input_json, 'judge_tool_calls', `${id}/${String(row.seq)}`, 'input_json'),
      input_json: undefined,
    })),
  };
}
