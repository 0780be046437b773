/**
 * What crosses between the engine's thread and the provider thread (threaded.ts,
 * workers/provider-thread.ts). Requests and replies are plain data, copied by postMessage; a
 * failure crosses as its fields and comes back as the same ProviderError (kind, status,
 * retry-after, message), so retry classification does not depend on the thread.
 */
import type { ProviderWait } from './rate-limits';
import type { ModelSettings, ResolvedKey } from './settings';
import {
  ProviderError,
  type ModelRequest,
  type ModelResponse,
  type ProviderErrorKind,
} from './types';

/** The engine's thread → the provider thread. */
export type ProviderThreadRequest =
  /** A provider to build on first use: its settings and its key (in memory only). */
  | { type: 'open'; providerId: number; settings: ModelSettings; key: ResolvedKey }
  | { type: 'call'; id: number; providerId: number; request: ModelRequest }
  /** The caller's signal aborted: abort that call's HTTP request. */
  | { type: 'abort'; id: number };

/** One link of a failure's cause chain: what `isTransientFailure` and the logs read. */
interface SentCause {
  name: string;
  message: string;
  code?: string;
  statusCode?: number;
}

/** A failure as it crosses: a ProviderError's fields, or any other error's name and message. */
export interface SentError {
  kind?: ProviderErrorKind;
  name: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
  causes: SentCause[];
}

/** The provider thread → the engine's thread. */
export type ProviderThreadMessage =
  | { type: 'done'; id: number; response: ModelResponse }
  | { type: 'failed'; id: number; error: SentError }
  /** The thread's pacers' waits changed (rate-limits.ts), for the engine's status. */
  | { type: 'waits'; waits: ProviderWait[] };

function causeOf(value: unknown): SentCause {
  const { code, statusCode } = (value ?? {}) as { code?: unknown; statusCode?: unknown };
  return {
    name: value instanceof Error ? value.name : 'Error',
    message: value instanceof Error ? value.message : String(value),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
  };
}

/** `error` as it crosses to the engine's thread. */
export function sendableError(error: unknown): SentError {
  const causes: SentCause[] = [];
  let current = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    causes.push(causeOf(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const head = causeOf(error);
  if (!(error instanceof ProviderError)) return { ...head, causes };
  return {
    kind: error.kind,
    name: error.name,
    message: error.message,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    causes,
  };
}

/** The error the provider thread sent, rebuilt: a ProviderError of the same kind, or an Error. */
export function receivedError(sent: SentError): Error {
  let cause: Error | undefined;
  for (const link of [...sent.causes].reverse()) {
    const made: Error & { code?: string; statusCode?: number } = new Error(
      link.message,
      cause ? { cause } : {},
    );
    made.name = link.name;
    if (link.code !== undefined) made.code = link.code;
    if (link.statusCode !== undefined) made.statusCode = link.statusCode;
    cause = made;
  }
  if (sent.kind) {
    return new ProviderError(sent.kind, sent.message, {
      ...(sent.status === undefined ? {} : { status: sent.status }),
      ...(sent.retryAfterMs === undefined ? {} : { retryAfterMs: sent.retryAfterMs }),
      ...(cause ? { cause } : {}),
    });
  }
  const made = new Error(sent.message, cause ? { cause } : {});
  made.name = sent.name;
  return made;
}
