/**
 * A real local HTTP server that speaks just enough of the Anthropic Messages API
 * (`POST /v1/messages`) and OpenAI Chat Completions (`POST /v1/chat/completions`),
 * non-streaming, for tests that drive the real SDKs. Replies come from a script per route:
 *
 *   server.script('anthropic', [
 *     reply.toolCall('shell', { command: 'ls' }),
 *     reply.error(429, { message: 'slow down' }, { 'retry-after': '0' }),
 *     reply.text('{"verdict":"pass"}'),
 *   ]);
 *
 * When a route's script runs out, its handler (if any) answers; otherwise a 400 names the
 * route and request, so an under-scripted test fails loudly instead of being retried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { textDialectMessage, type FakeDialect } from './fake-dialects';
import { createFakePromptCache, type FakeCacheUsage } from './fake-prompt-cache';

/** Which API a request spoke. */
export type FakeRoute = 'anthropic' | 'openai';

/** Token counts a scripted reply reports. */
export type FakeUsage = { inputTokens: number; outputTokens: number };

/** A tool call in a scripted reply; `rawArguments` sends OpenAI arguments verbatim. */
export type FakeToolCall = { name: string; input?: unknown; id?: string; rawArguments?: string };

/** Fields of an error body; the server shapes them per route. */
export type FakeErrorFields = { message?: string; type?: string; param?: string; code?: string };

/**
 * One scripted answer: a model message (text and/or tool calls), an error with a
 * provider-shaped body, or a raw JSON body. `delayMs` adds to the server's latency.
 */
export type FakeReply = { delayMs?: number } & (
  | {
      type: 'message';
      text?: string;
      calls?: FakeToolCall[];
      usage?: FakeUsage;
      stop?: string;
      /** Response headers (rate-limit headers, say). */
      headers?: Record<string, string>;
    }
  | { type: 'error'; status: number; error: FakeErrorFields; headers: Record<string, string> }
  | { type: 'raw'; status: number; body: unknown; headers: Record<string, string> }
  | { type: 'garbage'; status: number; text: string }
);

/** A request the server received, JSON body parsed. */
export interface ReceivedRequest {
  route: FakeRoute;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** With `promptCache`: what the Anthropic route's cache did for this request. */
  cache?: FakeCacheUsage;
}

/** Answers a request when the route's script is empty. */
export type FakeHandler = (request: ReceivedRequest) => FakeReply | Promise<FakeReply>;

/** Options for startFakeModelServer. */
export interface FakeServerOptions {
  /** Added before every answer, in milliseconds. */
  latencyMs?: number;
  /** Models that answer a provider-shaped 400 when the body has `temperature` (App. R). */
  rejectTemperatureFor?: string[];
  /**
   * How the OpenAI route writes tool calls and reasoning (fake-dialects.ts), per request
   * serial when a function; default `structured`.
   */
  openaiDialect?: FakeDialect | ((serial: number) => FakeDialect);
  /**
   * Simulates Anthropic's prompt cache (fake-prompt-cache.ts): usage then reports cache reads
   * and writes keyed on the prompt up to each `cache_control` block, instead of scripted usage.
   */
  promptCache?: boolean;
}

/** The running server. */
export interface FakeModelServer {
  /** `http://127.0.0.1:PORT`: the Anthropic SDK's baseURL. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`: the OpenAI SDK's baseURL. */
  readonly openaiUrl: string;
  /** Appends replies to a route's queue. */
  script(route: FakeRoute, replies: FakeReply[]): void;
  /** Sets (or clears) the fallback for a route whose queue is empty. */
  handle(route: FakeRoute, handler: FakeHandler | undefined): void;
  /** Requests received, optionally for one route, oldest first. */
  requests(route?: FakeRoute): ReceivedRequest[];
  /** Number of requests received, optionally for one route. */
  callCount(route?: FakeRoute): number;
  /** Scripted replies not yet used. */
  pending(route: FakeRoute): number;
  /** Changes the latency for later requests. */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

type MessageOptions = { usage?: FakeUsage; delayMs?: number };

/** Builders for scripted replies. */
export const reply = {
  /** A final answer; `stop` overrides the stop/finish reason (e.g. 'max_tokens'). */
  text(text: string, options: MessageOptions & { stop?: string } = {}): FakeReply {
    return { type: 'message', text, ...options };
  },
  /** One tool call in a turn. */
  toolCall(name: string, input: unknown, options: MessageOptions & { id?: string } = {}) {
    const { id, ...rest } = options;
    const call: FakeToolCall = { name, input, ...(id ? { id } : {}) };
    return { type: 'message', calls: [call], ...rest } satisfies FakeReply;
  },
  /** Several tool calls in one turn, optionally after some text. */
  toolCalls(calls: FakeToolCall[], options: MessageOptions & { text?: string } = {}): FakeReply {
    return { type: 'message', calls, ...options };
  },
  /** An error status with a provider-shaped body and optional headers. */
  error(status: number, error: FakeErrorFields = {}, headers: Record<string, string> = {}) {
    return { type: 'error', status, error, headers } satisfies FakeReply;
  },
  /** 429 with `retry-after` in seconds. */
  rateLimited(retryAfterSeconds = 0): FakeReply {
    const headers = { 'retry-after': String(retryAfterSeconds) };
    return reply.error(429, { message: 'Rate limited by the fake server' }, headers);
  },
  /** Anthropic's 529 overloaded_error. */
  overloaded(): FakeReply {
    return reply.error(529, { type: 'overloaded_error', message: 'Overloaded' });
  },
  /** A body that is not JSON at all, sent as application/json (a garbled answer). */
  garbage(text = '{"id": "msg_x", "content": [tru', status = 200): FakeReply {
    return { type: 'garbage', status, text };
  },
  /** Exactly this status, JSON body and headers. */
  raw(status: number, body: unknown, headers: Record<string, string> = {}): FakeReply {
    return { type: 'raw', status, body, headers };
  },
};

const DEFAULT_USAGE: FakeUsage = { inputTokens: 100, outputTokens: 20 };

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

type Message = Extract<FakeReply, { type: 'message' }>;

function anthropicMessage(
  message: Message,
  model: string,
  serial: number,
  cache?: FakeCacheUsage,
): unknown {
  const calls = message.calls ?? [];
  const content: unknown[] = message.text ? [{ type: 'text', text: message.text }] : [];
  calls.forEach((call, index) => {
    const id = call.id ?? `toolu_fake_${serial}_${index}`;
    content.push({ type: 'tool_use', id, name: call.name, input: call.input ?? {} });
  });
  const usage = message.usage ?? DEFAULT_USAGE;
  return {
    ...{ id: `msg_fake_${serial}`, type: 'message', role: 'assistant', model, content },
    stop_reason: message.stop ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: cache
      ? {
          input_tokens: cache.input_tokens,
          cache_creation_input_tokens: cache.cache_creation_input_tokens,
          cache_read_input_tokens: cache.cache_read_input_tokens,
          output_tokens: usage.outputTokens,
        }
      : { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

function openaiCompletion(
  message: Message,
  model: string,
  serial: number,
  dialect: FakeDialect = 'structured',
): unknown {
  if (dialect !== 'structured') return openaiTextDialect(message, model, serial, dialect);
  const calls = (message.calls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${serial}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.input ?? {}) },
  }));
  const { inputTokens, outputTokens } = message.usage ?? DEFAULT_USAGE;
  const said = { role: 'assistant', content: message.text || null, refusal: null };
  const finishReason = message.stop ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  return {
    ...{ id: `chatcmpl-fake-${serial}`, object: 'chat.completion', created: 1_700_000_000, model },
    choices: [
      {
        index: 0,
        message: { ...said, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: finishReason,
      },
    ],
    usage: {
      ...{ prompt_tokens: inputTokens, completion_tokens: outputTokens },
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/** A completion with the calls written into the text, as a server without a tool parser. */
function openaiTextDialect(
  message: Message,
  model: string,
  serial: number,
  dialect: Exclude<FakeDialect, 'structured'>,
): unknown {
  const fields = textDialectMessage(dialect, message.text, message.calls ?? []);
  const { inputTokens, outputTokens } = message.usage ?? DEFAULT_USAGE;
  return {
    ...{ id: `chatcmpl-fake-${serial}`, object: 'chat.completion', created: 1_700_000_000, model },
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...fields },
        // No tool parser ran, so the server does not know the turn is tool calls.
        finish_reason: message.stop ?? 'stop',
      },
    ],
    usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens },
  };
}

function errorBody(route: FakeRoute, status: number, fields: FakeErrorFields): unknown {
  const message = fields.message ?? `Fake error ${status}`;
  if (route === 'anthropic') {
    const type = fields.type ?? ANTHROPIC_ERROR_TYPES[status] ?? 'api_error';
    return { type: 'error', error: { type, message } };
  }
  const { type = 'invalid_request_error', param = null, code = null } = fields;
  return { error: { message, type, param, code } };
}

/** The provider-shaped 400 a model that takes no temperature answers (App. R). */
function temperatureRejection(route: FakeRoute, temperature: unknown): FakeReply {
  if (route === 'anthropic') {
    return reply.error(400, { message: '`temperature` is deprecated for this model.' });
  }
  const message =
    `Unsupported value: 'temperature' does not support ${String(temperature)} with this ` +
    'model. Only the default (1) value is supported.';
  return reply.error(400, { message, param: 'temperature', code: 'unsupported_value' });
}

const ROUTES: Record<string, FakeRoute> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
};

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(response: ServerResponse, status: number, json: unknown, headers = {}): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(json));
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startFakeModelServer(
  options: FakeServerOptions = {},
): Promise<FakeModelServer> {
  const queues: Record<FakeRoute, FakeReply[]> = { anthropic: [], openai: [] };
  const handlers: Partial<Record<FakeRoute, FakeHandler>> = {};
  const received: ReceivedRequest[] = [];
  const waits = new Map<NodeJS.Timeout, () => void>();
  let latencyMs = options.latencyMs ?? 0;
  const rejectTemperatureFor = new Set(options.rejectTemperatureFor ?? []);
  const promptCache = options.promptCache ? createFakePromptCache() : undefined;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        waits.delete(timer);
        resolve();
      }, ms);
      waits.set(timer, resolve);
    });

  async function choose(entry: ReceivedRequest, serial: number): Promise<FakeReply> {
    const { body, route } = entry;
    const model = typeof body.model === 'string' ? body.model : '';
    if (rejectTemperatureFor.has(model) && 'temperature' in body) {
      return temperatureRejection(route, body.temperature);
    }
    const scripted = queues[route].shift();
    if (scripted) return scripted;
    const handler = handlers[route];
    if (handler) return handler(entry);
    const message = `fake-model-server: no scripted reply left for ${route} (request ${serial})`;
    return reply.error(400, { message });
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const route = ROUTES[path];
    if (request.method !== 'POST' || !route) {
      return send(response, 404, { error: { message: `No fake route ${request.method} ${path}` } });
    }
    const body = await readBody(request);
    const entry: ReceivedRequest = { route, path, headers: { ...request.headers }, body };
    received.push(entry);
    const serial = received.length;
    const scripted = await choose(entry, serial);
    await wait(latencyMs + (scripted.delayMs ?? 0));
    if (scripted.type === 'raw')
      return send(response, scripted.status, scripted.body, scripted.headers);
    if (scripted.type === 'garbage') {
      if (response.destroyed) return;
      response.writeHead(scripted.status, { 'content-type': 'application/json' });
      return void response.end(scripted.text);
    }
    if (scripted.type === 'error') {
      const json = errorBody(route, scripted.status, scripted.error);
      return send(response, scripted.status, json, scripted.headers);
    }
    const model = typeof body.model === 'string' ? body.model : 'unknown-model';
    if (route === 'anthropic') {
      if (promptCache) entry.cache = promptCache.use(body);
      const message = anthropicMessage(scripted, model, serial, entry.cache);
      return send(response, 200, message, scripted.headers);
    }
    const dialect =
      typeof options.openaiDialect === 'function'
        ? options.openaiDialect(serial)
        : options.openaiDialect;
    send(response, 200, openaiCompletion(scripted, model, serial, dialect), scripted.headers);
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      send(response, 500, { error: { message: `fake-model-server failed: ${String(error)}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ofRoute = (route?: FakeRoute) =>
    received.filter((entry) => route === undefined || entry.route === route);

  return {
    url,
    openaiUrl: `${url}/v1`,
    script: (route, replies) => void queues[route].push(...replies),
    handle: (route, handler) => void (handlers[route] = handler),
    requests: (route) => ofRoute(route),
    callCount: (route) => ofRoute(route).length,
    pending: (route) => queues[route].length,
    setLatency: (ms) => void (latencyMs = ms),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const [timer, resolveWait] of waits) {
          clearTimeout(timer);
          resolveWait();
        }
        waits.clear();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
