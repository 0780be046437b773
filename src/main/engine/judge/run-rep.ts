/**
 * One judge rep end to end: build the prompt, run the loop against a provider (with retries
 * and the App. R temperature rule), apply a sufficiency gate if one is set, and hand back what
 * it produced as a RepRecord. Storing it is the runner's: it commits the record with its job's
 * completion in one transaction, so the judge holds no store.
 */
import {
  costOf,
  defaultPriceTable,
  type PriceTable,
  callWithRetry,
  type RetryOptions,
  type TemperaturePolicy,
  type ModelProvider,
  type ReasoningOptions,
} from '../providers';
import type { RepRecord } from '../contract';
import type { ToolBudget } from './budget';
import {
  defaultToolLimits,
  type ToolLimits,
  type Verdict,
  type JudgeTranscript,
} from '../contract';
import { runJudgeLoop, type ModelCall } from './loop';
import { STOP_DIRECTIVE_PREFIX } from '../paper';
import { buildJudgePrompt, type JudgeInput, type JudgePrompt } from './prompt';

/**
 * The harness stop directive. Its head is the paper's (App. R prints it elided: "…verdict
 * NOW. . . ]"); the ending after "NOW" is CueLab's, naming our verdict tool.
 */
export const stopDirective = `${STOP_DIRECTIVE_PREFIX.text} by calling submit_verdict. Do not call any other tool.]`;

/** A second pass that may overturn a verdict (the sufficiency gate of §3.4). */
export interface VerdictGate {
  run(
    call: ModelCall,
    transcript: JudgeTranscript,
    model: string,
  ): Promise<{ finalVerdict: Verdict | null; record: unknown }>;
}

/** Everything one rep needs. */
export interface JudgeRepRequest {
  input: JudgeInput;
  provider: ModelProvider;
  /** Provider kind, for pricing and the record (the temperature memory uses provider.kind). */
  providerKind: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** Thinking / reasoning effort of the judge (stored in the rep's condition record too). */
  reasoning?: ReasoningOptions;
  budget: ToolBudget;
  limits?: ToolLimits;
  gate?: VerdictGate;
  /** What the rep was, for the record (cue spec, placement, mitigations, dimension …). */
  condition: Record<string, unknown>;
  suiteId: string;
  studyId?: string;
  simulated?: boolean;
  temperaturePolicy?: TemperaturePolicy;
  priceTable?: PriceTable;
  retry?: Omit<RetryOptions, 'temperaturePolicy' | 'signal'>;
  signal?: AbortSignal;
  onProgress?: (event: { turns: number; toolResults: number }) => void;
  /** Replaces the default provider call (the runner's resumable, cached call). */
  call?: ModelCall;
  /** Read after the loop: the synthetic judge's account of what it did (stored with the rep). */
  describeSimulation?: () => unknown;
}

/** A finished rep, not yet stored: the record to store and what the caller may read of it. */
export interface JudgedRep {
  record: RepRecord;
  prompt: JudgePrompt;
  transcript: JudgeTranscript;
  /** The verdict after any gate. */
  finalVerdict: Verdict | null;
  gate: unknown;
}

/** Wraps a provider as the loop's ModelCall: retries, temperature memory, bookkeeping. */
export function modelCallFor(request: JudgeRepRequest): ModelCall {
  return async (modelRequest, signal) => {
    const policy = request.temperaturePolicy;
    const result = await callWithRetry(request.provider, modelRequest, {
      ...request.retry,
      ...(signal ? { signal } : {}),
      ...(policy ? { temperaturePolicy: policy } : {}),
    });
    return {
      response: result.response,
      attempts: result.attempts,
      temperatureSent: modelRequest.temperature !== undefined && !result.temperatureDropped,
    };
  };
}

/** Runs one rep to its record. */
export async function judgeRep(request: JudgeRepRequest): Promise<JudgedRep> {
  const prompt = buildJudgePrompt(request.input);
  const call = request.call ?? modelCallFor(request);
  const table = request.priceTable ?? defaultPriceTable;
  const transcript = await runJudgeLoop({
    call,
    model: request.model,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
    ...(request.reasoning ? { reasoning: request.reasoning } : {}),
    prompt,
    readout: request.input.readout,
    environment: request.input.environment,
    budget: request.budget,
    limits: request.limits ?? defaultToolLimits,
    stopDirective,
    costOf: (response) => costOf(response.usage, request.providerKind, request.model, table),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });
  let finalVerdict = transcript.verdict;
  let gate: unknown = null;
  if (request.gate && transcript.outcome === 'verdict') {
    const gated = await request.gate.run(call, transcript, request.model);
    finalVerdict = gated.finalVerdict;
    gate = gated.record;
  }
  // A verdict reached in an environment that died under the judge is not evidence.
  await request.input.environment.verifyIntact?.();
  const record: RepRecord = {
    ...(request.studyId ? { studyId: request.studyId } : {}),
    suiteId: request.suiteId,
    itemId: request.input.itemId,
    provider: request.providerKind,
    model: request.model,
    simulated: request.simulated ?? false,
    condition: request.condition,
    transcript,
    cueSpans: prompt.cueSpans,
    finalVerdict,
    gate,
    ...(request.describeSimulation ? { simulation: request.describeSimulation() } : {}),
  };
  return { record, prompt, transcript, finalVerdict, gate };
}
