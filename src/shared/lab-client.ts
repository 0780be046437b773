/**
 * The LabApi client over HTTP + WebSocket. The renderer (in Electron or a browser), the CLI
 * and the tests all use this one client; it validates every response against the contract.
 */
import {
  labMethods,
  labPaths,
  parseLabEvent,
  type LabApi,
  type LabEventMessage,
  type LabMethod,
  type LabRequest,
  type LabResponse,
} from './lab-api';
import { failure, type LabError, type LabResult } from './result';
import { bundleContentType } from './transport-limits';

/** Where the engine is and how to prove we may talk to it. */
export interface EngineAddress {
  /** Base URL such as `http://127.0.0.1:43121/`. */
  baseUrl: string;
  /** The per-launch token. */
  token: string;
}

/** The minimal WebSocket surface the client needs (browser WebSocket and `ws` both fit). */
export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/** Constructs a WebSocket for a URL. */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** Calls one method; a transport failure becomes an `engine_unreachable` result. */
export async function callLab<M extends LabMethod>(
  address: EngineAddress,
  method: M,
  request: LabRequest<M>,
  fetchImpl: typeof fetch = fetch,
): Promise<LabResult<LabResponse<M>>> {
  const url = new URL(`${labPaths.methodPrefix}${method}`, address.baseUrl);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${address.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
  } catch (error) {
    return failure(
      'engine_unreachable',
      `The CueLab engine at ${address.baseUrl} did not answer (${describe(error)}). Is it running?`,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return failure('bad_response', `The engine answered ${method} with something other than JSON.`);
  }
  return parseResult(method, body);
}

/**
 * Opens a bundle of any size by streaming its bytes as the body of `POST /api/openBundle`
 * (a Blob from a file input, or a ReadableStream of a file), instead of base64 inside JSON.
 */
export async function uploadBundle(
  address: EngineAddress,
  body: Blob | ReadableStream<Uint8Array> | Uint8Array,
  options: { replace?: boolean } = {},
  fetchImpl: typeof fetch = fetch,
): Promise<LabResult<LabResponse<'openBundle'>>> {
  const url = new URL(`${labPaths.methodPrefix}openBundle`, address.baseUrl);
  if (options.replace) url.searchParams.set('replace', '1');
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${address.token}`, 'content-type': bundleContentType },
      body: body as BodyInit,
      // A stream body needs half-duplex (fetch's rule); other bodies ignore it.
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    return failure(
      'engine_unreachable',
      `The CueLab engine at ${address.baseUrl} did not take the bundle (${describe(error)}).`,
    );
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    return failure(
      'bad_response',
      'The engine answered openBundle with something other than JSON.',
    );
  }
  return parseResult('openBundle', answer);
}

/** Checks an engine answer against the contract. */
export function parseResult<M extends LabMethod>(
  method: M,
  body: unknown,
): LabResult<LabResponse<M>> {
  if (typeof body !== 'object' || body === null || !('ok' in body)) {
    return failure('bad_response', `The engine's answer to ${method} is not a LabApi result.`);
  }
  if (body.ok === false) {
    const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return { ok: false, error: error as LabError };
    }
    return failure('bad_response', `The engine's error for ${method} has no code or message.`);
  }
  const parsed = labMethods[method].response.safeParse((body as { value?: unknown }).value);
  if (!parsed.success) {
    return failure('bad_response', `The engine's answer to ${method} does not match the contract.`);
  }
  return { ok: true, value: parsed.data as LabResponse<M> };
}

/** A typed LabApi bound to one engine address. */
export function createLabClient(address: EngineAddress, fetchImpl: typeof fetch = fetch): LabApi {
  const client: Partial<Record<LabMethod, unknown>> = {};
  for (const method of Object.keys(labMethods) as LabMethod[]) {
    client[method] = (request: LabRequest<typeof method>) =>
      callLab(address, method, request, fetchImpl);
  }
  return client as LabApi;
}

/** Handlers for an event subscription. */
export interface EventHandlers {
  /** A parsed event arrived. */
  onEvent: (event: LabEventMessage) => void;
  /** The socket opened (true) or closed (false). */
  onConnectionChange?: (connected: boolean) => void;
}

/** The WebSocket URL of the event stream, token included. */
export function eventsUrl(address: EngineAddress): string {
  const url = new URL(labPaths.events, address.baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', address.token);
  return url.toString();
}

/**
 * Subscribes to the engine's events. Returns a function that closes the socket.
 * Messages that do not parse against the contract are dropped.
 */
export function subscribeLabEvents(
  address: EngineAddress,
  createSocket: WebSocketFactory,
  handlers: EventHandlers,
): () => void {
  const socket = createSocket(eventsUrl(address));
  socket.onopen = () => handlers.onConnectionChange?.(true);
  socket.onclose = () => handlers.onConnectionChange?.(false);
  socket.onerror = () => undefined;
  socket.onmessage = (message) => {
    if (typeof message.data !== 'string') return;
    let raw: unknown;
    try {
      raw = JSON.parse(message.data);
    } catch {
      return;
    }
    const event = parseLabEvent(raw);
    if (event) handlers.onEvent(event);
  };
  return () => socket.close();
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? error.message;
  }
  return String(error);
}
