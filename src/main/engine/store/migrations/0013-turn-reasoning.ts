import type { Migration } from './types';

/**
 * The reasoning a model returned with each turn (an OpenAI-compatible server's
 * `reasoning_content` / `reasoning` field or `<think>` text, Anthropic's thinking blocks), so
 * Replay can show it beside the tool calls. NULL where none came back (and for every rep judged
 * before this version). On the turn, not the message: `judge_messages` is a view over compact
 * rows (0011) and a turn is exactly one assistant message.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'turn-reasoning',
  sql: `
    ALTER TABLE judge_turns ADD COLUMN reasoning TEXT;
  `,
};
