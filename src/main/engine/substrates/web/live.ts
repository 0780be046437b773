/**
 * The live web backend of the deep-search substrate: optional and off by default.
 * Everything about it comes from the user's own environment, never from a suite, spec or
 * bundle (a stranger's file must not point the user's search key anywhere):
 *
 *   CUELAB_LIVE_WEB=1                      turns it on
 *   CUELAB_LIVE_WEB_ENDPOINT=https://…     the search API (GET ?q=…&count=…, JSON results)
 *   CUELAB_LIVE_WEB_KEY_ENV=NAME_API_KEY   the key-shaped variable holding the search key
 *   CUELAB_LIVE_WEB_ALLOW=host,.domain     the only hosts fetch_url may open
 *
 * The search endpoint must also be one the user trusts (endpoint-trust.ts), as for providers.
 * The key goes only to the search endpoint, never to a fetched page, and is redacted from every
 * error. Every search answer and page is recorded; stored with the rep, the recording serves a
 * replay offline (`recordedWebBackend`). Fetching happens here, in the engine: containers still
 * have no network, and the judge only ever gets text back.
 */
import { z } from 'zod';
import type { FetchedPage, WebSearchResult } from '../../contract';
import { isKeyName } from '../../../../shared/secrets';
import { endpointOrigin, type EndpointTrust } from '../../providers';
import { redactKeys } from '../../redaction';
import type { WebBackend } from './environment';
import { htmlToText } from './html-text';
import { normalizeUrl } from './search-index';

/** The user's environment variables that configure the live backend. */
export const LIVE_WEB_ENV = {
  enabled: 'CUELAB_LIVE_WEB',
  endpoint: 'CUELAB_LIVE_WEB_ENDPOINT',
  keyEnv: 'CUELAB_LIVE_WEB_KEY_ENV',
  allowlist: 'CUELAB_LIVE_WEB_ALLOW',
} as const;

/** What the live backend needs: the search API, where its key is, and the fetchable hosts. */
export interface LiveWebSettings {
  endpoint: string;
  searchApiKeyEnv: string;
  /** Host names (`docs.example.org`) or domains with a leading dot (`.example.org`). */
  allowlist: readonly string[];
}

/** What the live backend recorded, in call order: a replay serves exactly this. */
export interface WebRecording {
  searches: { query: string; limit: number; results: WebSearchResult[] }[];
  pages: Omit<FetchedPage, 'truncated'>[];
}

/** The schema of a stored recording (it is read back from disk, so parsed). */
export const webRecordingSchema = z.object({
  searches: z.array(
    z.object({
      query: z.string(),
      limit: z.number().int(),
      results: z.array(z.object({ url: z.string(), title: z.string(), snippet: z.string() })),
    }),
  ),
  pages: z.array(z.object({ url: z.string(), title: z.string(), content: z.string() })),
});

const searchAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().default(''),
      snippet: z.string().default(''),
    }),
  ),
});

// A page bigger than this is cut (the judge's own output cap is far smaller).
const maxPageBytes = 2 * 1024 * 1024;
const requestTimeoutMs = 20_000;
const maxRedirects = 3;

/**
 * The live settings of the user's environment, or undefined when the backend is off.
 * Throws, naming the variable, when it is on but misconfigured.
 */
export function liveWebSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): LiveWebSettings | undefined {
  if (env[LIVE_WEB_ENV.enabled] !== '1') return undefined;
  const endpoint = env[LIVE_WEB_ENV.endpoint] ?? '';
  if (!endpointOrigin(endpoint)) {
    throw new Error(`${LIVE_WEB_ENV.endpoint}: must be the search API's http(s) URL`);
  }
  const searchApiKeyEnv = env[LIVE_WEB_ENV.keyEnv] ?? '';
  if (!isKeyName(searchApiKeyEnv)) {
    throw new Error(
      `${LIVE_WEB_ENV.keyEnv}: must name a key variable (ending in _API_KEY or _TOKEN)`,
    );
  }
  const allowlist = (env[LIVE_WEB_ENV.allowlist] ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (allowlist.length === 0) {
    throw new Error(`${LIVE_WEB_ENV.allowlist}: list the hosts fetch_url may open`);
  }
  return { endpoint, searchApiKeyEnv, allowlist };
}

/** True when `url` is http(s) on a host of `allowlist` (exact, or under a `.domain` entry). */
export function urlAllowed(url: string, allowlist: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  const hostPort = parsed.host.toLowerCase();
  return allowlist.some((entry) =>
    entry.startsWith('.')
      ? host.endsWith(entry) || host === entry.slice(1)
      : host === entry || hostPort === entry,
  );
}

/** How `liveWebBackend` reaches the network and where it records. */
export interface LiveWebOptions {
  env: Readonly<Record<string, string | undefined>>;
  trust: EndpointTrust;
  recording: WebRecording;
}

/** The live backend: the user's search API and allowlisted pages, each answer recorded. */
export function liveWebBackend(settings: LiveWebSettings, options: LiveWebOptions): WebBackend {
  const { env, recording } = options;
  const keys = () => ({ [settings.searchApiKeyEnv]: env[settings.searchApiKeyEnv] });
  const redacted = (error: unknown) =>
    new Error(redactKeys(error instanceof Error ? error.message : String(error), keys));
  const origin = endpointOrigin(settings.endpoint);
  const trusted = options.trust.endpoints.some((endpoint) => endpointOrigin(endpoint) === origin);
  return {
    kind: 'live',
    description:
      'web_search searches the live web; fetch_url returns the text of a page, but only on ' +
      `these hosts: ${settings.allowlist.join(', ')}. There is no other internet access.`,
    async search(query, limit, signal) {
      if (!trusted) {
        throw new Error(
          `the live search endpoint ${origin} is not trusted: add it to CUELAB_TRUSTED_ENDPOINTS`,
        );
      }
      const key = env[settings.searchApiKeyEnv];
      if (!key) throw new Error(`${settings.searchApiKeyEnv} is not set (the search API key)`);
      const url = new URL(settings.endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(limit));
      let answer: z.output<typeof searchAnswerSchema>;
      try {
        const response = await fetch(url, {
          headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
          redirect: 'error',
          signal: withTimeout(signal),
        });
        const body = await readCapped(response, maxPageBytes);
        if (!response.ok) throw new Error(`the search API answered ${response.status}: ${body}`);
        answer = searchAnswerSchema.parse(JSON.parse(body));
      } catch (error) {
        throw redacted(error);
      }
      // Results the judge could not open are not offered.
      const results = answer.results
        .filter((result) => urlAllowed(result.url, settings.allowlist))
        .slice(0, limit);
      recording.searches.push({ query, limit, results });
      return results;
    },
    async fetch(url, signal) {
      let current = url;
      for (let hop = 0; ; hop += 1) {
        if (!urlAllowed(current, settings.allowlist)) {
          throw new Error(
            `${current} is not on the live web allowlist (${LIVE_WEB_ENV.allowlist}); ` +
              'fetch_url opens only those hosts',
          );
        }
        let response: Response;
        try {
          // No key, no cookies: a page learns nothing about the user.
          response = await fetch(current, { redirect: 'manual', signal: withTimeout(signal) });
        } catch (error) {
          throw redacted(error);
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          if (hop >= maxRedirects) throw new Error(`${url} redirects too often`);
          current = new URL(location, current).toString();
          continue;
        }
        const body = await readCapped(response, maxPageBytes);
        if (!response.ok) throw new Error(`${current} answered ${response.status}`);
        const html = /html/i.test(response.headers.get('content-type') ?? '');
        const page = html
          ? { url: current, ...htmlToText(body) }
          : { url: current, title: current, content: body };
        recording.pages.push(page);
        return page;
      }
    },
  };
}

/** Serves a recording offline: the same answers for the same calls, nothing else. */
export function recordedWebBackend(recording: WebRecording): WebBackend {
  const pages = new Map(recording.pages.map((page) => [normalizeUrl(page.url), page]));
  return {
    kind: 'snapshot',
    search: (query, limit) => {
      const found = recording.searches.find(
        (search) => search.query === query && search.limit === limit,
      );
      return found
        ? Promise.resolve(found.results)
        : Promise.reject(new Error(`web_search "${query}" was not recorded with this rep`));
    },
    fetch: (url) => {
      const page = pages.get(normalizeUrl(url));
      return page
        ? Promise.resolve(page)
        : Promise.reject(new Error(`${url} was not fetched when this rep was recorded`));
    },
  };
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(requestTimeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** The body as text, at most `cap` bytes of it (a huge page does not fill memory). */
async function readCapped(response: Response, cap: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value.subarray(0, Math.max(0, cap - size))));
    size += value.length;
    if (size >= cap) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}
