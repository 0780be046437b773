/**
 * The web substrate's part of an environment spec (AJ-Bench Deep Search, §2). The web is a
 * layer: the engine serves it over whichever backend holds the rest of the item, so it is a
 * field every member may carry rather than a member of its own.
 */
import { z } from 'zod';

/** One page of an item's web snapshot. */
export const webPageSchema = z
  .object({
    /** The page's address; `fetch_url` answers it exactly (a trailing "/" and "#..." ignored). */
    url: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//.test(url), { message: 'must be an http(s) URL' }),
    title: z.string().min(1),
    /** The page as text (what `fetch_url` returns). */
    content: z.string(),
  })
  .strict();

/**
 * The web an item's judge sees: a snapshot of the pages the agent saw plus distractors,
 * searched by a local index. Nothing leaves the machine.
 */
export const webSpecSchema = z
  .object({
    pages: z.array(webPageSchema).min(1).max(5000),
    /** Results per `web_search` call; default 5. */
    resultsPerQuery: z.number().int().min(1).max(20).optional(),
  })
  .strict()
  .refine((web) => new Set(web.pages.map((page) => page.url)).size === web.pages.length, {
    message: 'every page needs its own url',
    path: ['pages'],
  });
