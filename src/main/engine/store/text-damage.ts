/**
 * A stored text that cannot be read back (store/text-blobs.ts: damaged, or inflating past its
 * limit), named as the `store_unreadable` error the rest of the store gives: which table, row
 * and field hold it, not an internal "Decompression failed". The open check reads a sample of
 * stored texts, so a damaged one is found before some report or replay meets it.
 */
import type Database from 'better-sqlite3';
import { EngineError } from '../errors';
import { StoredTextError, unpackText } from './text-blobs';

/** The columns that point at a blob, with the logical table and field readers see. */
const blobReferences = [
  {
    table: 'judge_tool_calls',
    from: 'judge_tool_call_rows',
    key: 'rep_id, seq',
    blob: 'output_blob',
    field: 'output',
  },
  {
    table: 'judge_messages',
    from: 'judge_message_rows',
    key: 'rep_id, seq',
    blob: 'content_blob',
    field: 'content',
  },
  {
    table: 'judge_reps',
    from: 'judge_reps',
    key: 'id',
    blob: 'system_prompt_blob',
    field: 'system_prompt',
  },
  {
    table: 'judge_reps',
    from: 'judge_reps',
    key: 'id',
    blob: 'tools_json_blob',
    field: 'tools_json',
  },
] as const;

/** Where blob `id` is used: the first row pointing at it, as "table row KEY: field". */
function blobPlace(db: Database.Database, id: number): string {
  for (const { table, from, key, blob, field } of blobReferences) {
    const row = db.prepare(`SELECT ${key} FROM ${from} WHERE ${blob} = ? LIMIT 1`).raw().get(id) as
      unknown[] | undefined;
    if (row) return `${table} row ${row.map(String).join('/')}: ${field}`;
  }
  return `text_blobs row ${String(id)} (no row uses it)`;
}

/** The store_unreadable error for a stored text that failed, naming where it is. */
export function storedTextError(db: Database.Database, error: StoredTextError): EngineError {
  let where = 'a stored text';
  try {
    const id = db.prepare('SELECT id FROM text_blobs WHERE body = ?').pluck().get(error.body) as
      number | undefined;
    if (id !== undefined) where = `${blobPlace(db, id)} (text_blobs row ${String(id)})`;
  } catch {
    // Naming the place is a courtesy: the damage is reported either way.
  }
  return new EngineError(
    'store_unreadable',
    `The workspace database is damaged: ${where}: ${error.message}. Restore the workspace from a backup, or delete that row.`,
  );
}

/** How many stored texts the open check reads: the newest and some spread over the rest. */
const sampledNewest = 16;
const sampledSpread = 16;

/**
 * The ids of the texts the open check reads: the newest `sampledNewest`, and `sampledSpread`
 * at even steps through the rest (deterministic, so a check that passed passes again).
 */
export function sampledTextIds(db: Database.Database): number[] {
  const newest = db
    .prepare('SELECT id FROM text_blobs ORDER BY id DESC LIMIT ?')
    .pluck()
    .all(sampledNewest) as number[];
  const bounds = db.prepare('SELECT min(id) AS low, max(id) AS high FROM text_blobs').get() as {
    low: number | null;
    high: number | null;
  };
  const ids = new Set(newest);
  if (bounds.low !== null && bounds.high !== null) {
    const step = (bounds.high - bounds.low) / sampledSpread;
    const next = db.prepare('SELECT id FROM text_blobs WHERE id >= ? ORDER BY id LIMIT 1').pluck();
    for (let index = 0; index < sampledSpread; index += 1) {
      const id = next.get(Math.floor(bounds.low + step * index)) as number | undefined;
      if (id !== undefined) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/** Reads the sampled stored texts; throws store_unreadable naming the first that fails. */
export function checkSampledTexts(db: Database.Database): void {
  const hasBlobs = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_blobs'")
    .get();
  if (!hasBlobs) return;
  const body = db.prepare('SELECT body FROM text_blobs WHERE id = ?').pluck();
  for (const id of sampledTextIds(db)) {
    const stored = body.get(id);
    if (!Buffer.isBuffer(stored)) continue;
    try {
      unpackText(stored);
    } catch (error) {
      if (error instanceof StoredTextError) throw storedTextError(db, error);
      throw error;
    }
  }
}
