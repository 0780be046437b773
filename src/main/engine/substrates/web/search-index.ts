/**
 * A small BM25 index over an item's web snapshot, so `web_search` answers offline and the same
 * query always gives the same ranking. Titles count twice (a page's title is a strong signal
 * on a real search engine too); ties break by snapshot order. Pure: no clock, no I/O.
 */
import type { WebPage } from '../../../../shared/suite-format';

/** One search hit as the judge sees it. */
export interface SearchHit {
  url: string;
  title: string;
  /** The passage of the page that best matches the query. */
  snippet: string;
  score: number;
}

// Okapi BM25's usual constants.
const k1 = 1.2;
const b = 0.75;
const titleWeight = 2;
const snippetChars = 240;

const stopWords = new Set(
  (
    'a an and are as at be by for from has have in is it its of on or that the this to was ' +
    'were what when where which who whom whose why how with did does do'
  ).split(' '),
);

/** Lower-case word tokens without stop words ("Ada's 1843 notes" → ada, s, 1843, notes). */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !stopWords.has(word));
}

interface IndexedPage {
  page: WebPage;
  frequencies: Map<string, number>;
  length: number;
}

/** A BM25 index over pages, built once per rep. */
export class SearchIndex {
  private readonly pages: IndexedPage[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(pages: readonly WebPage[]) {
    this.pages = pages.map((page) => {
      const tokens = [
        ...Array.from({ length: titleWeight }, () => tokenize(page.title)).flat(),
        ...tokenize(page.content),
      ];
      const frequencies = new Map<string, number>();
      for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
      for (const token of frequencies.keys()) {
        this.documentFrequency.set(token, (this.documentFrequency.get(token) ?? 0) + 1);
      }
      return { page, frequencies, length: tokens.length };
    });
    const total = this.pages.reduce((sum, entry) => sum + entry.length, 0);
    this.averageLength = this.pages.length ? total / this.pages.length : 0;
  }

  /** The `limit` best pages for `query`, best first; pages matching no query word are left out. */
  search(query: string, limit: number): SearchHit[] {
    const terms = [...new Set(tokenize(query))];
    const count = this.pages.length;
    const scored = this.pages.map((entry, order) => {
      let score = 0;
      for (const term of terms) {
        const frequency = entry.frequencies.get(term) ?? 0;
        if (frequency === 0) continue;
        const documents = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
        const norm = k1 * (1 - b + (b * entry.length) / (this.averageLength || 1));
        score += (idf * frequency * (k1 + 1)) / (frequency + norm);
      }
      return { entry, order, score };
    });
    return scored
      .filter((candidate) => candidate.score > 0)
      .sort((left, right) => right.score - left.score || left.order - right.order)
      .slice(0, limit)
      .map(({ entry, score }) => ({
        url: entry.page.url,
        title: entry.page.title,
        snippet: bestPassage(entry.page.content, terms),
        score: Math.round(score * 1000) / 1000,
      }));
  }
}

/** The sentence-aligned window of `content` holding the most query words. */
function bestPassage(content: string, terms: readonly string[]): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length <= snippetChars) return text;
  const wanted = new Set(terms);
  const sentences = text.split(/(?<=[.!?])\s+/);
  let best = 0;
  let bestScore = -1;
  sentences.forEach((sentence, index) => {
    const score = tokenize(sentence).filter((token) => wanted.has(token)).length;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  let passage = sentences[best] ?? '';
  for (let next = best + 1; next < sentences.length && passage.length < snippetChars; next += 1) {
    passage += ` ${sentences[next] ?? ''}`;
  }
  return passage.length > snippetChars ? `${passage.slice(0, snippetChars - 1)}…` : passage;
}

/** A URL as the snapshot keys it: no fragment, no trailing "/", lower-case scheme and host. */
export function normalizeUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return url.trim().replace(/#.*$/, '').replace(/\/+$/, '');
  }
}
