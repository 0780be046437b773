/**
 * Large rep texts (tool outputs, message contents, system prompts, tool lists) are stored once
 * per distinct text in `text_blobs`, keyed by their sha256 and compressed (migration 0011). The
 * same tool output recurs across the reps of an item and in both a rep's tool call and its tool
 * message; a condition's system prompt and tool list recur in every rep of it. Blobs are
 * append-only and carry no reference count: a rep's rows point at them, nothing updates them.
 *
 * The SQL side calls the functions registered here (views and triggers of migration 0011), so
 * every statement that reads or writes the logical tables (`judge_tool_calls`,
 * `judge_messages`) goes through one code path whatever module runs it, and values bound by
 * the store's statements are redacted before they reach these functions.
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** The first byte of a blob's body: how the rest is encoded. */
const CODEC_UTF8 = 0;
const CODEC_BROTLI = 1;

/**
 * Brotli at quality 5 in text mode: on the bench's tool outputs and on source files cut to tool
 * output size it beat deflate by 5–10 % of the stored size at the same speed, while quality 9–11
 * cost 6–30× the time for ≤ 4 % more (docs/SCALE.md, "Disk").
 */
const BROTLI_QUALITY = 5;

/** The sha256 of a text's UTF-8 bytes: the key of its blob. */
export function textHash(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A text's blob body: a codec byte, then brotli or, when that does not save, the raw bytes. */
export function packText(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8');
  const compressed = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const [codec, payload] =
    compressed.length < raw.length ? [CODEC_BROTLI, compressed] : [CODEC_UTF8, raw];
  return Buffer.concat([Buffer.of(codec), payload]);
}

/** The text a blob body holds. */
export function unpackText(body: Buffer): string {
  const codec = body[0];
  const payload = body.subarray(1);
  if (codec === CODEC_UTF8) return payload.toString('utf8');
  if (codec === CODEC_BROTLI) return brotliDecompressSync(payload).toString('utf8');
  throw new Error(`A stored text has an unknown codec ${String(codec)}.`);
}

function textArgument(name: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new TypeError(`${name} takes a text, not ${value === null ? 'NULL' : typeof value}.`);
  return value;
}

/**
 * Registers the SQL functions the schema's views and triggers call. Every connection to a
 * workspace needs them (openStore registers them before migrating), since SQLite resolves a
 * view's functions when a statement uses it.
 */
export function registerTextFunctions(db: Database.Database): void {
  // A trigger asks for the same text's hash up to three times (exists? insert, then look up).
  let lastText: string | undefined;
  let lastHash: Buffer = Buffer.alloc(0);
  db.function('cuelab_text_hash', { deterministic: true }, (value: unknown) => {
    const text = textArgument('cuelab_text_hash', value);
    if (text !== lastText) {
      lastHash = textHash(text);
      lastText = text;
    }
    return lastHash;
  });
  db.function('cuelab_text_pack', { deterministic: true }, (value: unknown) =>
    packText(textArgument('cuelab_text_pack', value)),
  );
  db.function('cuelab_text_unpack', { deterministic: true }, (value: unknown) => {
    if (value === null) return null;
    if (!Buffer.isBuffer(value)) throw new TypeError('cuelab_text_unpack takes a blob body.');
    return unpackText(value);
  });
}

/**
 * SQL for the text of a column pair (`inline`, `blob`): the inline text, else its blob's.
 * Used by readers of judge_reps' system prompt and tool list.
 */
export function storedTextSql(inline: string, blob: string): string {
  return `CASE WHEN ${blob} IS NULL THEN ${inline}
    ELSE (SELECT cuelab_text_unpack(body) FROM text_blobs WHERE id = ${blob}) END`;
}

/**
 * Selects judge_reps rows (alias `r`, add WHERE/ORDER BY) with their stored texts resolved;
 * pass each row through `logicalRepRow`. `r.*` keeps columns later migrations add.
 */
export const REP_ROWS_SQL = `SELECT r.*,
    ${storedTextSql('r.system_prompt', 'r.system_prompt_blob')} AS cuelab_system_prompt,
    ${storedTextSql('r.tools_json', 'r.tools_json_blob')} AS cuelab_tools_json
  FROM judge_reps r`;

const RESOLVED: Record<string, string> = {
  system_prompt: 'cuelab_system_prompt',
  tools_json: 'cuelab_tools_json',
};
const HIDDEN = new Set([
  'cuelab_system_prompt',
  'cuelab_tools_json',
  'system_prompt_blob',
  'tools_json_blob',
]);

/**
 * A row of REP_ROWS_SQL as judge_reps held it before compacting: the texts in their own
 * columns, in the column order (bundles mirror rows), and no blob ids.
 */
export function logicalRepRow(row: Record<string, unknown>): Record<string, unknown> {
  const logical: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (HIDDEN.has(column)) continue;
    const resolved = RESOLVED[column];
    logical[column] = resolved === undefined ? value : row[resolved];
  }
  return logical;
}
