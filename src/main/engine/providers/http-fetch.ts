/**
 * The `fetch` the model SDKs are given: a plain request on node:http or node:https through one
 * keep-alive agent per scheme, its whole reply read into a `Response`. The global fetch
 * (undici) runs each call through WHATWG streams, a request object, a fetch controller and
 * an abort-signal graph; at concurrency 32 that was the largest share of the runner's
 * main-thread work per rep, which the reps of a wave queue for. A provider's reply is one JSON
 * body, never a stream here, so none of that is needed. Anything this does not handle (a
 * streamed request body, a `Request` object) goes to the global fetch unchanged.
 */
import http from 'node:http';
import https from 'node:https';

/** Kept-alive sockets, reused by later calls to the same host (one per request in flight). */
const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** A body this client sends as it is, or null when it must go to the global fetch. */
function plainBody(body: FetchInit['body']): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}

/** The request's headers as node:http takes them. */
function headerObject(headers: FetchInit['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

/** The error the global fetch throws for a request that never got a reply. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The abort reason as fetch reports it (an AbortError unless the signal carries its own). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}

/** `fetch`, for a URL string or URL and a plain body; see the module comment. */
export function keepAliveFetch(input: FetchInput, init: FetchInit = {}): Promise<Response> {
  const body = plainBody(init.body);
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const agent = url ? agents[url.protocol as keyof typeof agents] : undefined;
  if (!url || !agent || body === null) return fetch(input, init);
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    const headers = headerObject(init.headers);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers,
      agent,
    });
    let settled = false;
    const finish = (error: Error | null, response?: Response) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (response) resolve(response);
      else reject(error ?? new TypeError('fetch failed'));
    };
    const onAbort = () => {
      request.destroy();
      finish(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(fetchFailed(error)));
    request.on('response', (reply) => {
      const chunks: Buffer[] = [];
      reply.on('data', (chunk: Buffer) => chunks.push(chunk));
      reply.on('error', (error) => finish(fetchFailed(error)));
      reply.on('end', () => {
        const status = reply.statusCode ?? 0;
        const replyHeaders = new Headers();
        for (let index = 0; index + 1 < reply.rawHeaders.length; index += 2)
          replyHeaders.append(reply.rawHeaders[index] ?? '', reply.rawHeaders[index + 1] ?? '');
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        try {
          finish(
            null,
            new Response(empty ? null : Buffer.concat(chunks), {
              status,
              statusText: reply.statusMessage ?? '',
              headers: replyHeaders,
            }),
          );
        } catch (error) {
          finish(fetchFailed(error));
        }
      });
    });
    request.end(body);
  });
}
