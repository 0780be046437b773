/**
 * The deep-search substrate: `web_search` and `fetch_url` for items whose task is to
 * find facts on the web. By default they are served from the item's snapshot (the pages the
 * agent saw plus distractors) through a local BM25 index: offline, and the same on every run.
 *
 * A live backend (the user's search API, a URL allowlist, every fetched page stored with the
 * rep so its replay stays offline) is in `live.ts`, off unless the user turns it on; nothing
 * here opens a network connection.
 */
import type { EnvironmentSpec, WebSpec } from '../../../../shared/suite-format';
import type { FetchedPage, JudgeEnvironment, ToolLimits, WebSearchResult } from '../../contract';
import { normalizeUrl, SearchIndex } from './search-index';
import { sqliteDatabaseOf } from '../../../../shared/substrates/sqlite';

/** Where the web tools get their answers. */
export interface WebBackend {
  /** `snapshot` (offline: the item's pages, or a rep's recording) or `live` (live.ts). */
  readonly kind: 'snapshot' | 'live';
  /** What the judge is told about this web, when it is not the item's snapshot. */
  readonly description?: string;
  search(query: string, limit: number, signal?: AbortSignal): Promise<WebSearchResult[]>;
  fetch(url: string, signal?: AbortSignal): Promise<Omit<FetchedPage, 'truncated'>>;
}

/** Results per `web_search` call when the item does not say. */
export const defaultResultsPerQuery = 5;

/** The offline backend: the item's own pages and a search index over them. */
export function snapshotWebBackend(web: WebSpec): WebBackend {
  const index = new SearchIndex(web.pages);
  const byUrl = new Map(web.pages.map((page) => [normalizeUrl(page.url), page]));
  return {
    kind: 'snapshot',
    search: (query, limit) =>
      Promise.resolve(
        index.search(query, limit).map(({ url, title, snippet }) => ({ url, title, snippet })),
      ),
    fetch: (url) => {
      const page = byUrl.get(normalizeUrl(url));
      if (!page) {
        return Promise.reject(
          new Error(
            `${url} is not in this item's web snapshot (the judge's web is offline: only ` +
              'pages web_search returns can be fetched)',
          ),
        );
      }
      return Promise.resolve({ url: page.url, title: page.title, content: page.content });
    },
  };
}

/** True when the item's judge needs the file tools too (it has files, a database or a shell). */
function hasLocalState(spec: EnvironmentSpec, local: JudgeEnvironment): boolean {
  return (
    local.capabilities.shell ||
    local.capabilities.sql ||
    Object.keys(spec.files).length > 0 ||
    sqliteDatabaseOf(spec) !== undefined
  );
}

/** What the judge is told about the web part of an environment. */
export function webDescription(web: WebSpec): string {
  return (
    `web_search searches an offline snapshot of ${web.pages.length} web pages (the pages the ` +
    'agent saw, and others); fetch_url returns the text of a page in it. There is no other ' +
    'internet access.'
  );
}

/**
 * `local` with the web tools added: the web from `backend` (the item's snapshot by default).
 * A web-only item (no files, no database, no shell) offers only the web tools.
 */
export function withWeb(
  local: JudgeEnvironment,
  spec: EnvironmentSpec & { web: WebSpec },
  backend: WebBackend = snapshotWebBackend(spec.web),
): JudgeEnvironment {
  const keepLocal = hasLocalState(spec, local);
  const limit = spec.web.resultsPerQuery ?? defaultResultsPerQuery;
  return {
    capabilities: {
      ...local.capabilities,
      files: keepLocal && local.capabilities.files,
      web: true,
    },
    description: keepLocal
      ? `${local.description} ${backend.description ?? webDescription(spec.web)}`
      : (backend.description ?? webDescription(spec.web)),
    exec: (command, limits, signal) => local.exec(command, limits, signal),
    readFile: (path, limits) => local.readFile(path, limits),
    listDir: (path) => local.listDir(path),
    sqlQuery: (sql, limits) => local.sqlQuery(sql, limits),
    webSearch: (query, _limits: ToolLimits, signal) => backend.search(query, limit, signal),
    fetchUrl: async (url, limits: ToolLimits, signal) => {
      const page = await backend.fetch(url, signal);
      const bytes = Buffer.from(page.content, 'utf8');
      const truncated = bytes.length > limits.maxOutputBytes;
      const content = truncated
        ? bytes.subarray(0, limits.maxOutputBytes).toString('utf8')
        : page.content;
      return { ...page, content, truncated };
    },
  };
}
