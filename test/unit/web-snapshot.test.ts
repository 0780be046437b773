import { describe, expect, it } from 'vitest';
import { checkAnswer, normalizeAnswer } from '../../src/main/engine/substrates/web/answer';
import {
  normalizeUrl,
  SearchIndex,
  tokenize,
} from '../../src/main/engine/substrates/web/search-index';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { postgresOf } from '../../src/shared/substrates/postgres';

const pages = [
  {
    url: 'https://a.example/rail',
    title: 'Kestrel railway history',
    content: 'The line opened in 1887.',
  },
  {
    url: 'https://b.example/birds',
    title: 'Kestrels',
    content: 'Kestrel birds hover over the valley.',
  },
  {
    url: 'https://c.example/tea',
    title: 'Tea rooms',
    content: 'Scones and tea by the old railway.',
  },
];

describe('the web snapshot search index', () => {
  it('tokenizes to lower-case words without stop words', () => {
    expect(tokenize("When did Ada's railway open, in 1887?")).toEqual([
      'ada',
      's',
      'railway',
      'open',
      '1887',
    ]);
  });

  it('ranks by BM25 with titles weighted, drops pages matching nothing, and is stable', () => {
    const index = new SearchIndex(pages);
    const hits = index.search('kestrel railway', 5);
    expect(hits.map((hit) => hit.url)).toEqual([
      'https://a.example/rail',
      'https://b.example/birds',
      'https://c.example/tea',
    ]);
    expect(index.search('kestrel railway', 5)).toEqual(hits);
    expect(index.search('submarine', 5)).toEqual([]);
    expect(index.search('kestrel', 1)).toHaveLength(1);
  });

  it('keys URLs without fragment or trailing slash', () => {
    expect(normalizeUrl('HTTPS://A.Example/rail/#top')).toBe('https://a.example/rail');
  });
});

describe('the exact-answer verifier', () => {
  const trajectory = (final: string) => [
    { role: 'user' as const, content: 'q', tool_calls: undefined },
    { role: 'assistant' as const, content: final },
  ];

  it('reads the last Answer line and compares ignoring case, spacing and punctuation', () => {
    expect(normalizeAnswer('  The Tamsin   Footbridge. ')).toBe('tamsin footbridge');
    expect(
      checkAnswer(trajectory('Found it.\nAnswer: the tamsin footbridge'), ['Tamsin Footbridge'])
        .passed,
    ).toBe(true);
    expect(checkAnswer(trajectory('Answer: 1889'), ['1887'])).toMatchObject({
      given: '1889',
      passed: false,
    });
    expect(checkAnswer(trajectory('I could not tell.'), ['1887'])).toMatchObject({
      given: null,
      passed: false,
    });
  });
});

describe('the suite format for the new substrates', () => {
  it('refuses duplicate page URLs, a non-http page, both databases, and a missing dump file', () => {
    const bad = environmentSpecSchema.safeParse({
      files: {},
      database: { path: 'x.db' },
      postgres: { dumpFile: 'missing.sql' },
      web: { pages: [pages[0], pages[0], { ...pages[1], url: 'file:///etc/passwd' }] },
    });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'web.pages.2.url: must be an http(s) URL',
        'web.pages: every page needs its own url',
      ]),
    );
  });

  it('defaults a Postgres state to database app, owner agent, read-only', () => {
    expect(postgresOf(environmentSpecSchema.parse({ postgres: { sql: 'SELECT 1;' } }))).toEqual({
      database: 'app',
      owner: 'agent',
      sql: 'SELECT 1;',
      access: 'read-only',
    });
    expect(environmentSpecSchema.safeParse({ postgres: { owner: 'postgres' } }).success).toBe(
      false,
    );
  });
});
