/**
 * A judge_reps text column pair written compact from the start (migration 0011): the row is
 * inserted with '' and the blob id, instead of the text that the table's trigger then moves to
 * a blob. Rewriting a just-inserted row to a third of its size leaves its page two-thirds empty
 * (3.2 KB per rep at paper scale where the compact row takes 1.2 KB).
 */
import { statement, type Store } from './database';

/** What to bind for a text column and its `_blob` column. */
export interface TextColumn {
  text: string;
  blob: number | null;
}

/** Shorter texts stay inline, as the migration's triggers keep them. */
const INLINE = 64;

/**
 * Stores `text` once (or finds it) and returns the pair to bind. The text is bound as a string,
 * so the store's write-time redaction applies before SQL hashes and packs it.
 */
export function compactTextColumn(store: Store, text: string): TextColumn {
  if (text.length < INLINE) return { text, blob: null };
  statement(
    store,
    `INSERT INTO text_blobs (hash, body)
       SELECT cuelab_text_hash(@text), cuelab_text_pack(@text)
        WHERE NOT EXISTS (SELECT 1 FROM text_blobs WHERE hash = cuelab_text_hash(@text))`,
  ).run({ text });
  const id = statement<[{ text: string }], { id: number }>(
    store,
    'SELECT id FROM text_blobs WHERE hash = cuelab_text_hash(@text)',
  ).get({ text });
  if (!id) throw new Error('A stored text was not found by its hash.');
  return { text: '', blob: id.id };
}
