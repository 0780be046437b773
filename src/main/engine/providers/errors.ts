/**
 * Turns what an SDK threw into a ProviderError that says what happened and what to do.
 * Both SDKs (Anthropic, OpenAI) share one error family shape (status, headers, parsed JSON
 * body), so one mapper serves both; each adapter passes its own SDK's classes.
 */
import { ProviderError } from './types';

/** A constructor we only use with `instanceof`. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one SDK, so `instanceof` works without importing both SDKs here. */
export interface SdkErrorClasses {
  /** Base of every SDK error (wrong response body, etc.). */
  SdkError: ErrorClass;
  /** An HTTP error response (has `status`, `headers`, `error`). */
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

/** What a message about one failed call needs to say. */
export interface ErrorContext {
  /** Human name of the endpoint, e.g. 'Anthropic' or 'the OpenAI-compatible server at …'. */
  providerLabel: string;
  model: string;
  /** Environment variable that holds the key; named in auth errors. */
  apiKeyEnv: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Reads `headers.get`, from a fetch `Headers` or anything shaped like it. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * How long the provider asked us to wait, in milliseconds: `retry-after-ms` first, then
 * `retry-after` as seconds or as an HTTP-date. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(
  headers: HeaderSource | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after')?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
  // Every HTTP-date form starts with a day name; Date.parse alone would accept '-3'.
  if (!/^[A-Za-z]{3}/.test(retryAfter)) return undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * True when a 400 says the model does not take `temperature` (App. R: Opus-4.7 rejects the
 * parameter with a validation error; OpenAI reasoning models answer "Unsupported value:
 * 'temperature' …"). The wording is matched loosely because no provider promises it.
 */
export function isTemperatureRejection(message: string, param?: string): boolean {
  const mentionsTemperature = param === 'temperature' || /temperature/i.test(message);
  const saysUnsupported =
    /not (be )?supported|unsupported|deprecated|not allowed|does not support|isn't supported|not available/i.test(
      message,
    );
  return mentionsTemperature && saysUnsupported;
}

/**
 * True when a 400 says the prompt exceeds the model's context window (Anthropic: "prompt is
 * too long"; OpenAI: code `context_length_exceeded`, "maximum context length").
 */
export function isContextOverflow(
  message: string,
  detail: { type?: string; code?: string },
): boolean {
  return (
    detail.code === 'context_length_exceeded' ||
    /prompt is too long|maximum context length|context (length|window)|too many (input )?tokens/i.test(
      message,
    )
  );
}

/** The useful parts of a JSON error body, whether nested (`{error:{…}}`) or flat. */
function errorDetail(body: unknown): {
  message?: string;
  type?: string;
  param?: string;
  code?: string;
} {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const inner =
    typeof record.error === 'object' && record.error !== null
      ? (record.error as Record<string, unknown>)
      : record;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    message: text(inner.message),
    type: text(inner.type),
    param: text(inner.param),
    code: text(inner.code),
  };
}

/** The HTTP parts of an SDK APIError, read structurally. */
function httpParts(error: Error): { status?: number; headers?: HeaderSource; body?: unknown } {
  const record = error as unknown as Record<string, unknown>;
  const status = typeof record.status === 'number' ? record.status : undefined;
  const headers =
    typeof record.headers === 'object' &&
    record.headers !== null &&
    typeof (record.headers as HeaderSource).get === 'function'
      ? (record.headers as HeaderSource)
      : undefined;
  return { status, headers, body: record.error };
}

/** `401 {"message"…}` → the provider's own sentence, without the SDK's status prefix. */
function providerSaid(error: Error, body: unknown): string {
  return errorDetail(body).message ?? error.message.replace(/^\d{3}\s+/, '');
}

function keyAdvice(context: ErrorContext): string {
  return context.apiKeyEnv
    ? `Set ${context.apiKeyEnv} to a valid API key`
    : 'Name the environment variable that holds the API key in the model settings (apiKeyEnv)';
}

/**
 * Maps anything a provider call threw to a ProviderError. A ProviderError passes through;
 * an error that is not from the SDK (a bug in our code) is rethrown unchanged by the caller.
 */
export function toProviderError(
  error: unknown,
  classes: SdkErrorClasses,
  context: ErrorContext,
): ProviderError | undefined {
  if (error instanceof ProviderError) return error;
  const { providerLabel: who, model } = context;
  if (context.signal?.aborted || error instanceof classes.APIUserAbortError) {
    return new ProviderError('aborted', `The call to ${who} (${model}) was cancelled.`, {
      cause: error,
    });
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ProviderError(
      'timeout',
      `${who} did not answer within ${context.timeoutMs} ms (${model}). Raise timeoutMs in the ` +
        'model settings, or check the network and the server.',
      { cause: error },
    );
  }
  if (error instanceof classes.APIConnectionError) {
    return new ProviderError(
      'connection',
      `Could not reach ${who}: ${error.message}. Check the network, the base URL, and that the ` +
        'server is running.',
      { cause: error },
    );
  }
  if (error instanceof classes.APIError) return fromHttpError(error, context);
  if (error instanceof classes.SdkError || error instanceof SyntaxError) {
    return new ProviderError(
      'bad_response',
      `${who} sent a response CueLab could not read (${model}): ${error.message}. Check that ` +
        'the base URL points at a compatible API.',
      { cause: error },
    );
  }
  return undefined;
}

function fromHttpError(error: Error, context: ErrorContext): ProviderError {
  const { providerLabel: who, model } = context;
  const { status, headers, body } = httpParts(error);
  const detail = errorDetail(body);
  const said = providerSaid(error, body);
  const retryAfterMs = parseRetryAfterMs(headers);
  const options = { status, retryAfterMs, cause: error };
  if (status === 429) {
    return new ProviderError(
      'rate_limited',
      `${who} rate limit reached (429, ${model}): ${said}. CueLab waits and retries; lower ` +
        'the concurrency for this provider if it keeps happening.',
      options,
    );
  }
  if (status === 529 || detail.type === 'overloaded_error') {
    return new ProviderError(
      'overloaded',
      `${who} is overloaded (${status ?? '?'}, ${model}): ${said}. CueLab retries with backoff; ` +
        'if it persists, try again later.',
      options,
    );
  }
  if (status !== undefined && status >= 500) {
    return new ProviderError(
      'server_error',
      `${who} had a server error (${status}, ${model}): ${said}. CueLab retries with backoff; ` +
        "if it persists, check the provider's status page or the server's log.",
      options,
    );
  }
  if (status === 408) {
    return new ProviderError(
      'timeout',
      `${who} timed out the request (408, ${model}): ${said}. CueLab retries.`,
      options,
    );
  }
  if (status === 401 || status === 403) {
    const what = status === 401 ? 'rejected the API key' : 'refused access';
    return new ProviderError(
      'auth',
      `${who} ${what} (${status}, ${model}): ${said}. ${keyAdvice(context)}` +
        (status === 403 ? ' whose account has access to this model.' : '.'),
      options,
    );
  }
  if (status === 404) {
    return new ProviderError(
      'not_found',
      `${who} does not know model '${model}' or the endpoint (404): ${said}. Check the model ` +
        'name and the base URL in the model settings.',
      options,
    );
  }
  if ((status === 400 || status === 413) && isContextOverflow(said, detail)) {
    return new ProviderError(
      'bad_request',
      `${who} model '${model}' cannot take a prompt this long (${status}): ${said}. The rep ` +
        'fails without retries (the same prompt can never fit); use a model with a larger ' +
        'context window or a smaller tool budget.',
      options,
    );
  }
  if ((status === 400 || status === 422) && isTemperatureRejection(said, detail.param)) {
    return new ProviderError(
      'temperature_rejected',
      `${who} model '${model}' rejects the temperature parameter (${status}): ${said}. CueLab ` +
        'retries once without temperature and remembers it for this model (App. R).',
      options,
    );
  }
  return new ProviderError(
    'bad_request',
    `${who} rejected the request (${status ?? '?'}, ${model}): ${said}. Check the model ` +
      'settings (model, maxTokens, tools); if they look right, report this as a CueLab bug.',
    options,
  );
}
