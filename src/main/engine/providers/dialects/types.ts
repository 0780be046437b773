/**
 * Tool-call and reasoning dialects of OpenAI-compatible servers. A server run with a tool
 * parser returns structured `tool_calls`; one run without (or a model its parser does not
 * know) returns the calls in the message text, and reasoning in a field or in `<think>` tags.
 * One small parser per dialect reads a reply into the neutral turn; index.ts picks one.
 */
import type { z } from 'zod';
import type { toolDialectSchema } from '../../../../shared/catalogue/providers';
import type { ToolCall } from '../types';

/** What a judge's `dialect` option may say: one dialect, or `auto` (sniffed per reply). */
export type DialectChoice = z.infer<typeof toolDialectSchema>;

/** One tool-call dialect. */
export type ToolDialect = Exclude<DialectChoice, 'auto'>;

/** A tool call as the `tool_calls` field carried it, arguments still a string. */
export interface StructuredCall {
  id?: string | undefined;
  name: string;
  arguments?: string | undefined;
}

/** One assistant message as the server sent it, reasoning already taken out of the text. */
export interface AssistantReply {
  /** The message text with any `<think>` block removed. */
  text: string;
  structuredCalls: readonly StructuredCall[];
}

/** A reply read in one dialect: the text left for the judge and the calls it made. */
export interface DialectReading {
  text: string;
  toolCalls: ToolCall[];
}

/** One dialect's parser. Sees a stranger's text: linear time, bounded output. */
export interface DialectParser {
  readonly name: ToolDialect;
  /** True when the reply shows this dialect (auto picks the first that does). */
  shows(reply: AssistantReply): boolean;
  /** The reply read in this dialect; a string names why it cannot be. */
  read(reply: AssistantReply): DialectReading | string;
}

/** Most tool calls one message may carry; more is not a judge's turn. */
export const MAX_CALLS_PER_MESSAGE = 64;
