import type { Migration } from './types';

/**
 * Suite taxonomies, and judge reps with everything they did: the exact prompt, every message,
 * every model call (tokens, cost, timing, retries) and every tool call (input, output, timing).
 */
export const migration0002: Migration = {
  version: 2,
  name: 'judge reps',
  sql: `
    ALTER TABLE suites ADD COLUMN settings_json TEXT NOT NULL DEFAULT '{}';

    CREATE TABLE suite_taxonomies (
      suite_id TEXT NOT NULL REFERENCES suites(id) ON DELETE CASCADE,
      taxonomy_id TEXT NOT NULL,
      body_json TEXT NOT NULL,
      PRIMARY KEY (suite_id, taxonomy_id)
    ) STRICT;

    CREATE TABLE judge_reps (
      id TEXT PRIMARY KEY,
      study_id TEXT REFERENCES studies(id) ON DELETE CASCADE,
      suite_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      simulated INTEGER NOT NULL DEFAULT 0 CHECK (simulated IN (0, 1)),
      condition_json TEXT NOT NULL,
      outcome TEXT NOT NULL
        CHECK (outcome IN ('verdict', 'invalid_verdict', 'budget_exhausted', 'error')),
      verdict_json TEXT,
      final_verdict_json TEXT,
      gate_json TEXT,
      verdict_source TEXT,
      verdict_problems_json TEXT NOT NULL DEFAULT '[]',
      repair_used INTEGER NOT NULL DEFAULT 0,
      system_prompt TEXT NOT NULL,
      tools_json TEXT NOT NULL,
      cue_spans_json TEXT NOT NULL DEFAULT '[]',
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_usd REAL,
      tool_results INTEGER NOT NULL DEFAULT 0,
      turns INTEGER NOT NULL DEFAULT 0,
      duration_ms INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      -- The synthetic judge's own account (persona, true mechanism); NULL for real models.
      simulation_json TEXT,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX judge_reps_by_item ON judge_reps (suite_id, item_id, created_at);
    CREATE INDEX judge_reps_by_study ON judge_reps (study_id);

    CREATE TABLE judge_messages (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      content TEXT NOT NULL,
      tool_calls_json TEXT,
      tool_call_id TEXT,
      tool_name TEXT,
      is_error INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (rep_id, seq)
    ) STRICT;

    CREATE TABLE judge_turns (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      turn INTEGER NOT NULL,
      started_at TEXT NOT NULL,
      latency_ms INTEGER NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cost_usd REAL,
      stop_reason TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      temperature_sent INTEGER NOT NULL,
      PRIMARY KEY (rep_id, turn)
    ) STRICT;

    CREATE TABLE judge_tool_calls (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      turn INTEGER NOT NULL,
      call_id TEXT NOT NULL,
      name TEXT NOT NULL,
      input_json TEXT NOT NULL,
      output TEXT NOT NULL,
      is_error INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      result_number INTEGER NOT NULL,
      stop_directive INTEGER NOT NULL,
      PRIMARY KEY (rep_id, seq)
    ) STRICT;

    CREATE TABLE model_settings_memory (
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      temperature_rejected INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (provider, model)
    ) STRICT;
  `,
};
