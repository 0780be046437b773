/**
 * Replay: serves recorded responses for a recorded request sequence, so a study bundle can
 * be re-run offline and checked (ARCHITECTURE.md, `providers`). Each call must match the next
 * recorded request; a difference means the prompts, cues or tools changed since recording.
 */
import { createHash } from 'node:crypto';
import { ProviderError, type ModelProvider, type ModelRequest, type ModelResponse } from './types';

/** One recorded call. */
export interface RecordedCall {
  request: ModelRequest;
  response: ModelResponse;
}

/** The kind a replay provider reports (and prices at nothing). */
export const REPLAY_KIND = 'replay';

/** A replay provider; `remaining` tells how many recordings are left unserved. */
export interface ReplayProvider extends ModelProvider {
  readonly kind: typeof REPLAY_KIND;
  remaining(): number;
}

/** JSON with object keys sorted, so equal values always give equal text. */
export function stableStringify(value: unknown): string {
  return appendStable('', value);
}

/**
 * `out` followed by `value`'s stable JSON, built in one pass: the call cache hashes every
 * request of every rep, whose messages grow with each turn, so no part is joined twice.
 */
function appendStable(out: string, value: unknown): string {
  if (value === undefined) return `${out}null`;
  if (value === null || typeof value !== 'object') return out + JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = `${out}[`;
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      text = appendStable(text, value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = `${out}{`;
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const field = record[key];
    if (field === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    text = appendStable(text, field);
    first = false;
  }
  return `${text}}`;
}

/**
 * A stable hash of what the model saw: system prompt, messages and tools. Model and sampling
 * settings are left out on purpose (App. R: temperature may be dropped per model).
 */
export function requestHash(request: ModelRequest): string {
  const seen = { system: request.system, messages: request.messages, tools: request.tools };
  return createHash('sha256').update(stableStringify(seen)).digest('hex');
}

function preview(value: unknown): string {
  const text = stableStringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Where two requests first differ, in words. */
export function describeDifference(expected: ModelRequest, actual: ModelRequest): string {
  if (expected.system !== actual.system) return 'the system prompt differs';
  if (stableStringify(expected.tools) !== stableStringify(actual.tools)) {
    return 'the tool list differs';
  }
  const shared = Math.min(expected.messages.length, actual.messages.length);
  for (let index = 0; index < shared; index += 1) {
    const want = expected.messages[index];
    const got = actual.messages[index];
    if (stableStringify(want) !== stableStringify(got)) {
      return `message ${index} differs: recorded ${preview(want)}, got ${preview(got)}`;
    }
  }
  return (
    `message ${shared} differs: recorded ${expected.messages.length} messages, ` +
    `got ${actual.messages.length}`
  );
}

/**
 * A provider that answers from `calls` in order. A request that does not match the next
 * recording, or a call past the end, throws a ProviderError('bad_request') that says where.
 */
export function createReplayProvider(calls: readonly RecordedCall[]): ReplayProvider {
  const recordings = calls.map((call) => ({ ...call, hash: requestHash(call.request) }));
  let next = 0;
  return {
    kind: REPLAY_KIND,
    remaining: () => recordings.length - next,
    complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      if (signal?.aborted) {
        return Promise.reject(new ProviderError('aborted', 'The replayed call was cancelled.'));
      }
      const recording = recordings[next];
      if (!recording) {
        return Promise.reject(
          new ProviderError(
            'bad_request',
            `Replay ran out: the recording has ${recordings.length} calls and call ` +
              `${next + 1} was asked for. The judge went further than when it was recorded; ` +
              're-record the run or check what changed.',
          ),
        );
      }
      if (requestHash(request) !== recording.hash) {
        return Promise.reject(
          new ProviderError(
            'bad_request',
            `Replay mismatch at call ${next + 1}: ${describeDifference(recording.request, request)}. ` +
              'The prompts, cues or tools changed since this was recorded; restore them or ' +
              're-record the run.',
          ),
        );
      }
      next += 1;
      return Promise.resolve(structuredClone(recording.response));
    },
  };
}
