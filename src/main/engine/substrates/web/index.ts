/** The web substrate: search and fetch over the item's web (its offline snapshot by default). */
import { z } from 'zod';
import { defineTool, toolError } from '../../contract';
import type { Substrate } from '../substrate';
import { withWeb } from './environment';

const noWeb = 'This environment has no web.';

const webSearchTool = defineTool({
  name: 'web_search',
  description: 'Search the web (an offline snapshot); returns titles, URLs and snippets.',
  input: z.object({ query: z.string().min(1).max(500) }).strict(),
  run: async ({ query }, { environment, limits, signal }) => {
    if (!environment.webSearch) return toolError(noWeb);
    const hits = await environment.webSearch(query, limits, signal);
    if (hits.length === 0) return { content: `No results for "${query}".`, isError: false };
    const text = hits.map(
      (hit, index) => `${index + 1}. ${hit.title}\n   ${hit.url}\n   ${hit.snippet}`,
    );
    return { content: text.join('\n'), isError: false };
  },
});

const fetchUrlTool = defineTool({
  name: 'fetch_url',
  description: 'Fetch a web page (from the offline snapshot) and return its text.',
  input: z.object({ url: z.string().min(1).max(2000) }).strict(),
  run: async ({ url }, { environment, limits, signal }) => {
    if (!environment.fetchUrl) return toolError(noWeb);
    const page = await environment.fetchUrl(url, limits, signal);
    const note = page.truncated ? `\n[truncated at ${limits.maxOutputBytes} bytes]` : '';
    return {
      content: `URL: ${page.url}\nTitle: ${page.title}\n\n${page.content}${note}`,
      isError: false,
    };
  },
});

/** `web_search` and `fetch_url`, offered when the item carries a web. */
export const webSubstrate: Substrate = {
  name: 'web',
  tools: [webSearchTool, fetchUrlTool],
  servedBy: (environment) => environment.capabilities.web === true,
  // A web item's pages are served to the judge from the engine, never from a container.
  layer: (local, spec, { webBackend }) => {
    const { web } = spec;
    return web ? withWeb(local, { ...spec, web }, webBackend) : local;
  },
};
