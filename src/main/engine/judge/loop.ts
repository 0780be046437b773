/**
 * The agentic judge loop: ask the model, run the tools it calls in the environment, feed the
 * results back, until it submits a verdict. The soft budget follows App. R; the optional hard
 * stop and the max-turn guard are CueLab's safety settings (budget.ts). A verdict that does not
 * parse gets one repair turn, then the rep is `invalid_verdict`.
 */
import type { ChatMessage, ModelRequest, ModelResponse, ReasoningOptions } from '../providers';
import type { ToolBudget } from './budget';
import type {
  JudgeEnvironment,
  ToolLimits,
  Readout,
  JudgeTranscript,
  RepOutcome,
  ToolCallRecord,
  TurnRecord,
} from '../contract';
import { runTool, submitVerdictTool } from './tools';
import { extractVerdictFromText, parseVerdictInput, type VerdictParse } from './verdict-parse';
import type { JudgePrompt } from './prompt';

/** One model call with its retry bookkeeping (providers/retry.ts supplies it). */
export interface ModelCallResult {
  response: ModelResponse;
  attempts: number;
  temperatureSent: boolean;
}

/** Performs a model call, retrying what can be retried. */
export type ModelCall = (request: ModelRequest, signal?: AbortSignal) => Promise<ModelCallResult>;

/** Options of one rep. */
export interface JudgeLoopOptions {
  call: ModelCall;
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** Thinking / reasoning effort, sent on every call of the rep. */
  reasoning?: ReasoningOptions;
  prompt: JudgePrompt;
  readout: Readout;
  environment: JudgeEnvironment;
  budget: ToolBudget;
  limits: ToolLimits;
  /** Text appended to the tool result that reaches the soft budget (App. R). */
  stopDirective: string;
  /** USD for a call's usage, or null when unknown. */
  costOf: (response: ModelResponse) => number | null;
  signal?: AbortSignal;
  /** Called after each model call and tool result, for live progress. */
  onProgress?: (event: { turns: number; toolResults: number }) => void;
  now?: () => number;
}

const repairText = (problems: string[]) =>
  `Your answer did not contain a valid verdict (${problems.join('; ')}). ` +
  `Call ${submitVerdictTool} now with your final verdict, using exactly the fields its schema asks for.`;

/** Runs one judge rep to its end and returns the full transcript. */
export async function runJudgeLoop(options: JudgeLoopOptions): Promise<JudgeTranscript> {
  const now = options.now ?? Date.now;
  const started = now();
  const { prompt, readout } = options;
  const messages: ChatMessage[] = [...prompt.messages];
  const offered = new Set(prompt.tools.map((tool) => tool.name));
  const turns: TurnRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let toolResults = 0;
  let repairUsed = false;
  let problems: string[] = [];

  const finish = (
    outcome: RepOutcome,
    parse?: VerdictParse & { ok: true },
    source?: 'submit_verdict' | 'text_json',
  ): JudgeTranscript => {
    const known = turns.every((turn) => turn.costUsd !== null);
    return {
      model: options.model,
      system: prompt.system,
      tools: prompt.tools,
      messages,
      turns,
      toolCalls,
      outcome,
      verdict: parse?.verdict ?? null,
      verdictSource: source ?? null,
      verdictProblems: outcome === 'verdict' ? [] : problems,
      repairUsed,
      totals: {
        inputTokens: sum(turns.map((turn) => turn.usage.inputTokens)),
        outputTokens: sum(turns.map((turn) => turn.usage.outputTokens)),
        costUsd: known ? sum(turns.map((turn) => turn.costUsd ?? 0)) : null,
        toolResults,
        turns: turns.length,
        durationMs: now() - started,
      },
    };
  };

  for (;;) {
    options.signal?.throwIfAborted();
    const callStarted = now();
    const request: ModelRequest = {
      model: options.model,
      system: prompt.system,
      messages: [...messages],
      tools: prompt.tools,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...options.reasoning,
    };
    const result = await options.call(request, options.signal);
    const { response } = result;
    turns.push({
      index: turns.length,
      startedAt: new Date(callStarted).toISOString(),
      latencyMs: now() - callStarted,
      usage: response.usage,
      costUsd: options.costOf(response),
      stopReason: response.stopReason,
      attempts: result.attempts,
      temperatureSent: result.temperatureSent,
    });
    messages.push({
      role: 'assistant',
      content: response.text,
      ...(response.toolCalls.length ? { toolCalls: response.toolCalls } : {}),
      ...(response.reasoningBlocks ? { reasoningBlocks: response.reasoningBlocks } : {}),
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    });
    options.onProgress?.({ turns: turns.length, toolResults });

    if (response.toolCalls.length === 0) {
      const parse = extractVerdictFromText(readout, response.text);
      if (parse.ok) return finish('verdict', parse, 'text_json');
      problems = parse.problems;
      if (repairUsed) return finish('invalid_verdict');
      repairUsed = true;
      messages.push({ role: 'user', content: repairText(parse.problems) });
      continue;
    }

    let submitted: VerdictParse | undefined;
    for (const call of response.toolCalls) {
      const callStart = now();
      if (call.name === submitVerdictTool) {
        submitted = parseVerdictInput(readout, call.input);
        if (submitted.ok) return finish('verdict', submitted, 'submit_verdict');
        problems = submitted.problems;
        if (repairUsed) return finish('invalid_verdict');
        const content = repairText(submitted.problems);
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content,
          isError: true,
        });
        toolCalls.push({
          turn: turns.length - 1,
          id: call.id,
          name: call.name,
          input: call.input,
          output: content,
          isError: true,
          durationMs: 0,
          resultNumber: toolResults,
          stopDirective: false,
        });
        continue;
      }
      const outcome = await runTool(call.name, call.input, {
        environment: options.environment,
        trajectoryLines: prompt.trajectoryLines,
        limits: options.limits,
        offered,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      toolResults += 1;
      const reachesBudget = options.budget.soft !== null && toolResults === options.budget.soft;
      const content = reachesBudget
        ? `${outcome.content}\n\n${options.stopDirective}`
        : outcome.content;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content,
        ...(outcome.isError ? { isError: true } : {}),
      });
      toolCalls.push({
        turn: turns.length - 1,
        id: call.id,
        name: call.name,
        input: call.input,
        output: content,
        isError: outcome.isError,
        durationMs: now() - callStart,
        resultNumber: toolResults,
        stopDirective: reachesBudget,
      });
      options.onProgress?.({ turns: turns.length, toolResults });
    }
    if (submitted && !submitted.ok) repairUsed = true;
    const { hardCap, maxTurns } = options.budget;
    if (hardCap !== null && toolResults >= hardCap) {
      problems = [
        `no verdict after ${toolResults} tool results (hard stop ${hardCap}, a safety setting)`,
      ];
      return finish('budget_exhausted');
    }
    if (turns.length >= maxTurns) {
      problems = [`no verdict after ${turns.length} turns (max-turn guard ${maxTurns})`];
      return finish('budget_exhausted');
    }
  }
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
