/**
 * The workbench's full-text search (migration 0015): an FTS5 index over every rep's rationale
 * and stored message contents, kept current by triggers as reps and messages land, and filled
 * for reps stored before it existed by `fillSearchIndex`, a batch at a time.
 *
 * What a person types is never FTS5 syntax: `searchMatch` turns it into a query of quoted
 * phrases only (`"a phrase"`, `word`, `prefix*`), so quotes, AND/OR/NOT, NEAR, column filters,
 * `^`, parentheses and `:` are searched for as text or dropped, and no input is a syntax error.
 * Words are whole tokens (unicode61: letters and digits, case and diacritics folded), so
 * `config.py` finds the phrase "config py" and `conf*` finds `config`; a text matches when it
 * holds every term.
 */
import { EngineError } from '../errors';
import { redactKeyText } from '../secrets';
import type { Store } from './database';
import { StoredTextError } from './text-blobs';

/** A rep's documents are `doc << SPAN_BITS` (rationale) and that plus 1 + seq (messages). */
const SPAN_BITS = 20;

/** Longest search text (the contract's limit too), and most terms in one search. */
export const maxSearchLength = 200;
const maxSearchTerms = 16;

/** A term holds something the tokenizer keeps (a letter or digit); else it is dropped. */
const WORDLIKE = /[\p{L}\p{N}]/u;

interface Term {
  text: string;
  prefix: boolean;
}

function splitTerms(input: string): Term[] {
  const terms: Term[] = [];
  let index = 0;
  while (index < input.length) {
    const character = input[index] ?? '';
    if (/\s/.test(character)) {
      index += 1;
      continue;
    }
    let text: string;
    if (character === '"') {
      const close = input.indexOf('"', index + 1);
      const end = close < 0 ? input.length : close;
      text = input.slice(index + 1, end);
      index = end + 1;
    } else {
      const match = /^[^\s"]+/.exec(input.slice(index));
      text = match?.[0] ?? character;
      index += text.length;
    }
    let prefix = false;
    if (input[index] === '*') {
      prefix = true;
      while (input[index] === '*') index += 1;
    }
    if (text.endsWith('*')) {
      prefix = true;
      text = text.replace(/\*+$/, '');
    }
    terms.push({ text, prefix });
  }
  return terms;
}

/**
 * The FTS5 query for what a person typed: each word or "quoted phrase" one double-quoted
 * string (inner quotes doubled), a trailing `*` a prefix; terms without a letter or digit are
 * dropped. Throws bad_request when the search is too long, has too many terms or nothing to
 * look for.
 */
export function searchMatch(input: string): string {
  if (input.length > maxSearchLength)
    throw new EngineError(
      'bad_request',
      `The search is ${String(input.length)} characters long; at most ${String(maxSearchLength)} are searched.`,
    );
  // Keys were redacted before anything was stored or indexed; the bound query would be too,
  // and would then find every rep whose text had some key redacted.
  if (redactKeyText(input) !== input)
    throw new EngineError(
      'bad_request',
      'The search holds what looks like an API key. Keys are redacted before anything is ' +
        'stored, so no transcript holds one to find; search for the words around it.',
    );
  // Control characters are no part of a word; a NUL would end the text early in SQLite's view.
  const cleaned = input.replace(/\p{Cc}/gu, ' ');
  const terms = splitTerms(cleaned).filter((term) => WORDLIKE.test(term.text));
  if (terms.length === 0)
    throw new EngineError(
      'bad_request',
      `The search ${JSON.stringify(input.slice(0, 40))} has no letters or digits to look for: ` +
        'search for words, a "quoted phrase" or a prefix*.',
    );
  if (terms.length > maxSearchTerms)
    throw new EngineError(
      'bad_request',
      `The search has ${String(terms.length)} words; at most ${String(maxSearchTerms)} are searched together.`,
    );
  return terms
    .map((term) => `"${term.text.replace(/"/g, '""')}"${term.prefix ? '*' : ''}`)
    .join(' ');
}

/**
 * SQL: whether the rep `repId` (an SQL expression) has a text matching the FTS5 query bound as
 * `@search`. The matching documents are read from the index once (uncorrelated), never a text.
 */
export function repMatchesSql(repId: string): string {
  return `${repId} IN (SELECT s.rep_id FROM search_reps s
      WHERE s.doc IN (SELECT rowid >> ${String(SPAN_BITS)} FROM search_texts WHERE search_texts MATCH @search))`;
}

/** How many of a study's reps are not indexed yet (0 once fillSearchIndex has caught up). */
export function unindexedRepCount(store: Store, studyId: string): number {
  const anyPending = store.db.prepare('SELECT 1 FROM search_pending LIMIT 1').pluck().get();
  if (anyPending === undefined) return 0;
  return store.db
    .prepare(
      `SELECT count(*) FROM search_pending p JOIN judge_reps r ON r.id = p.rep_id
        WHERE r.study_id = ?`,
    )
    .pluck()
    .get(studyId) as number;
}

/** What one fillSearchIndex call did. */
export interface SearchFill {
  /** Reps indexed by this call. */
  indexed: number;
  /** Reps still waiting. */
  pending: number;
}

/**
 * Indexes reps stored before the index existed, at most `maxReps` of them or until `budgetMs`
 * has passed, in one transaction, so a caller on the request thread can yield between calls.
 * Each rep's documents are replaced whole (a message a trigger indexed meanwhile included).
 * The texts are read through the views (decompressed) and bound to the index's insert, so the
 * store's bound-value redaction applies to them as it does to every write: no key is indexed.
 */
export function fillSearchIndex(
  store: Store,
  options: { maxReps?: number; budgetMs?: number } = {},
): SearchFill {
  const { db } = store;
  // Nothing pending (every open after the first fill): no write transaction at all.
  if (db.prepare('SELECT 1 FROM search_pending LIMIT 1').pluck().get() === undefined)
    return { indexed: 0, pending: 0 };
  const maxReps = options.maxReps ?? 500;
  const deadline = performance.now() + (options.budgetMs ?? 25);
  const nextReps = db.prepare('SELECT rep_id FROM search_pending LIMIT ?').pluck();
  const ensureDoc = db.prepare(
    'INSERT INTO search_reps (rep_id) VALUES (?) ON CONFLICT (rep_id) DO NOTHING',
  );
  const docOf = db.prepare('SELECT doc FROM search_reps WHERE rep_id = ?').pluck();
  const clear = db.prepare('DELETE FROM search_texts WHERE rowid BETWEEN ? AND ?');
  const rationale = db
    .prepare(
      `SELECT CASE WHEN json_valid(final_verdict_json)
                    AND json_type(final_verdict_json, '$.rationale') = 'text'
                   THEN json_extract(final_verdict_json, '$.rationale') END
         FROM judge_reps WHERE id = ?`,
    )
    .pluck();
  const messages = db.prepare<[string], { seq: number; content: string | null }>(
    'SELECT seq, content FROM judge_messages WHERE rep_id = ? ORDER BY seq',
  );
  // A damaged stored text is named where the transcript is read (store-damage.ts); here it
  // only leaves that rep's messages out of the index instead of stopping the fill for good.
  const readableMessages = (repId: string) => {
    try {
      return messages.all(repId);
    } catch (error) {
      if (error instanceof StoredTextError) return [];
      throw error;
    }
  };
  const insert = db.prepare('INSERT INTO search_texts (rowid, text) VALUES (?, ?)');
  const done = db.prepare('DELETE FROM search_pending WHERE rep_id = ?');
  let indexed = 0;
  db.transaction(() => {
    const repIds = nextReps.all(maxReps) as string[];
    for (const repId of repIds) {
      ensureDoc.run(repId);
      const base = (docOf.get(repId) as number) * 2 ** SPAN_BITS;
      clear.run(base, base + 2 ** SPAN_BITS - 1);
      const text = rationale.get(repId) as string | null | undefined;
      if (typeof text === 'string' && text !== '') insert.run(base, text);
      for (const message of readableMessages(repId)) {
        if (message.seq < 0 || message.seq >= 2 ** SPAN_BITS - 1) continue;
        if (message.content) insert.run(base + 1 + message.seq, message.content);
      }
      done.run(repId);
      indexed += 1;
      if (performance.now() > deadline) break;
    }
  }).immediate();
  const pending = db.prepare('SELECT count(*) FROM search_pending').pluck().get() as number;
  return { indexed, pending };
}
