/**
 * The paper-scale workspace with stored messages (parts s and e): part (c)'s generated
 * workspace, then `perRep` messages added to every rep through the `judge_messages` view, the
 * path the runner writes by, so they are compacted (text_blobs) and indexed (FTS5) by the
 * view's triggers as the runner's are. One transaction per 2,000 reps, one prepared insert.
 *
 * Texts come from a pool per item (2 × perRep texts: a rep's message `seq` is one of two),
 * as a real item's reps read the same files and so share tool outputs: every message is a
 * row and a document of the index of its own, but only the pool's texts are compressed, which
 * made writing 1.41 M messages minutes instead of the better part of an hour. What that leaves
 * out: unshared assistant texts (more blobs, a larger file); the index is the same size.
 */
import { copyFileSync, statSync } from 'node:fs';
import { openStore } from '../src/main/engine/store/database';
import { seededRandom, type Random } from '../src/main/engine/random';
import { keptWorkspace } from './kept-workspace';
import { now } from './measure';
import { generatePaperWorkspace } from './paper-workspace';

/** A word that about one message in 200 holds (the search matching rarely). */
export const RARE_WORD = 'quarantined';
/** A word no message holds (the search that matches nothing). */
export const ABSENT_WORD = 'zyxwvutsrq';

/** What the workspace holds and what making it cost (the kept one's costs when copied). */
export interface MessagesWorkspace {
  studyId: string;
  reps: number;
  messages: number;
  /** Distinct message texts (compressed once each). */
  distinctTexts: number;
  generationMs: number;
  messageMs: number;
  fileBytes: number;
  /** The kept file it was copied from (CUELAB_BENCH_WORKSPACES), else null. */
  copiedFrom: string | null;
}

/** A vocabulary of pronounceable words, so the index has a realistic number of terms. */
function vocabulary(random: Random, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ten', 'sar', 'vo', 'ri', 'pel', 'dun', 'ex', 'qua', 'zo'];
  const words = new Set<string>();
  while (words.size < size) {
    const parts = 2 + Math.floor(random() * 3);
    let word = '';
    for (let index = 0; index < parts; index += 1)
      word += syllables[Math.floor(random() * syllables.length)] ?? '';
    words.add(word);
  }
  return [...words];
}

function messageText(random: Random, words: readonly string[], seq: number): string {
  const length = 20 + Math.floor(random() * 60);
  const parts: string[] = [seq % 2 === 0 ? 'Tool output:' : 'I read the file and'];
  for (let index = 0; index < length; index += 1)
    parts.push(words[Math.floor(random() * words.length)] ?? 'word');
  if (random() < 0.005) parts.splice(3, 0, RARE_WORD);
  return parts.join(' ');
}

/** Adds `perRep` stored messages to every rep of the workspace at `path`. */
function addMessages(path: string, perRep: number, log: (line: string) => void) {
  const store = openStore(path);
  const random = seededRandom(5, 'bench', 'messages');
  const words = vocabulary(random, 4000);
  const reps = store.db
    .prepare<[], { id: string; item: string }>(
      'SELECT id, item_id AS item FROM judge_reps ORDER BY rowid',
    )
    .all();
  const insert = store.db.prepare(
    `INSERT INTO judge_messages (rep_id, seq, role, content, is_error) VALUES (?, ?, ?, ?, 0)`,
  );
  const pools = new Map<string, string[]>();
  const poolOf = (item: string) => {
    let pool = pools.get(item);
    if (!pool) {
      pool = Array.from({ length: 2 * perRep }, (_, index) =>
        messageText(random, words, Math.floor(index / 2)),
      );
      pools.set(item, pool);
    }
    return pool;
  };
  let written = 0;
  const batch = store.db.transaction((slice: typeof reps) => {
    for (const rep of slice) {
      const pool = poolOf(rep.item);
      for (let seq = 0; seq < perRep; seq += 1) {
        const text = pool[2 * seq + (random() < 0.5 ? 0 : 1)] ?? '';
        insert.run(rep.id, seq, seq % 2 === 0 ? 'tool' : 'assistant', text);
        written += 1;
      }
    }
  });
  for (let start = 0; start < reps.length; start += 2000) {
    batch(reps.slice(start, start + 2000));
    if (start % 20_000 === 0) log(`  messages: ${String(written)} written`);
  }
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return { reps: reps.length, written, distinctTexts: pools.size * 2 * perRep };
}

function makeWorkspace(
  file: string,
  perRep: number,
  itemStride: number,
  log: (line: string) => void,
) {
  const generated = generatePaperWorkspace(file, itemStride);
  log(`  generated ${String(generated.reps)} reps in ${String(generated.generationMs)} ms`);
  const started = now();
  const added = addMessages(file, perRep, log);
  const messageMs = Math.round(now() - started);
  log(`  ${String(added.written)} messages written and indexed in ${String(messageMs)} ms`);
  return {
    studyId: generated.studyId,
    reps: added.reps,
    messages: added.written,
    distinctTexts: added.distinctTexts,
    generationMs: generated.generationMs,
    messageMs,
    fileBytes: statSync(file).size,
  };
}

/**
 * The paper-scale workspace with `perRep` messages a rep at `path`: made there, copied from
 * `workspaceFile` (messages added to the copy), or with CUELAB_BENCH_WORKSPACES=DIR copied from
 * DIR/messages-N (made there first).
 */
export function messagesWorkspace(
  path: string,
  options: { perRep: number; itemStride?: number; workspaceFile?: string | undefined },
  log: (line: string) => void,
): MessagesWorkspace {
  const itemStride = options.itemStride ?? 1;
  if (options.workspaceFile) {
    copyFileSync(options.workspaceFile, path);
    const started = now();
    const added = addMessages(path, options.perRep, log);
    return {
      studyId: 'paper-scale',
      reps: added.reps,
      messages: added.written,
      distinctTexts: added.distinctTexts,
      generationMs: 0,
      messageMs: Math.round(now() - started),
      fileBytes: statSync(path).size,
      copiedFrom: options.workspaceFile,
    };
  }
  const name = `messages-${String(options.perRep)}${itemStride > 1 ? `-stride-${String(itemStride)}` : ''}`;
  const { facts, copiedFrom } = keptWorkspace(name, path, (file) =>
    makeWorkspace(file, options.perRep, itemStride, log),
  );
  if (copiedFrom) log(`  workspace copied from ${copiedFrom} (CUELAB_BENCH_WORKSPACES)`);
  return { ...facts, copiedFrom };
}
