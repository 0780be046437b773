/**
 * Everything one judge rep did, as recorded: every model call with its tokens, cost, timing
 * and retries; every tool call with its input, output and timing; the outcome. This is what
 * the store keeps and what replay, the meta-judge and analysis read.
 */
import type { ChatMessage, StopReason, TokenUsage, ToolSpec } from '../providers';
import type { Verdict } from './verdict';

/** How a rep ended. */
export type RepOutcome = 'verdict' | 'invalid_verdict' | 'budget_exhausted';

/** Where the accepted verdict came from. */
export type VerdictSource = 'submit_verdict' | 'text_json';

/** One model call. */
export interface TurnRecord {
  index: number;
  startedAt: string;
  latencyMs: number;
  usage: TokenUsage;
  /** USD; null when the price table does not know the model. */
  costUsd: number | null;
  stopReason: StopReason;
  /** Attempts the call took (1 = no retry). */
  attempts: number;
  /** Whether temperature was sent on the attempt that succeeded. */
  temperatureSent: boolean;
}

/** One tool call and its result. */
export interface ToolCallRecord {
  turn: number;
  id: string;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
  durationMs: number;
  /** 1-based count of tool results so far (App. R counts result blocks). */
  resultNumber: number;
  /** True on the result the harness stop directive was appended to. */
  stopDirective: boolean;
}

/** A complete judge rep. */
export interface JudgeTranscript {
  model: string;
  system: string;
  tools: ToolSpec[];
  /** The conversation as finally sent, including the last assistant answer. */
  messages: ChatMessage[];
  turns: TurnRecord[];
  toolCalls: ToolCallRecord[];
  outcome: RepOutcome;
  verdict: Verdict | null;
  verdictSource: VerdictSource | null;
  /** Why the verdict was rejected, when it was. */
  verdictProblems: string[];
  repairUsed: boolean;
  totals: {
    inputTokens: number;
    outputTokens: number;
    costUsd: number | null;
    toolResults: number;
    turns: number;
    durationMs: number;
  };
}

/** A span of cue text inside the prompt. `message` is an index into `messages`, or 'system'. */
export interface CueSpan {
  location: 'system' | number;
  /** Character offsets into that text, end exclusive. */
  start: number;
  end: number;
}
