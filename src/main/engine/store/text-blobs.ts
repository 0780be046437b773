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
 *
 * A workspace file is a stranger's file too (a bundle, a copied folder, a damaged disk), so
 * every decompression has an output limit: a body written now records its text's byte length,
 * and inflating it stops at that length (a 406-byte brotli stream that inflates to 500 MiB
 * fails a byte past what it declared); a body written before lengths were recorded stops at a
 * limit derived from its size (legacyLimit). A body that fails is a StoredTextError, which the store names
 * as `store_unreadable` with table, row and field (store-damage.ts).
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** The first byte of a blob's body: how the rest is encoded. */
const CODEC_UTF8 = 0;
/** Brotli without a recorded length: bodies written before lengths were recorded. */
const CODEC_BROTLI = 1;
/** A 4-byte little-endian length of the text's UTF-8 bytes, then brotli. */
const CODEC_BROTLI_SIZED = 2;

/**
 * Largest text a body may inflate to (64 MiB, the largest suite file: no stored text is
 * longer), and so the limit of a body that records no length.
 */
export const maxStoredTextBytes = 64 * 1024 * 1024;

/**
 * The output limit of a body that records no length, derived from its size: 1,024 times it,
 * at least 1 MiB, at most `maxStoredTextBytes`. Texts compress 5–20× (tool outputs, which may
 * repeat one line, are cut at 64 KB), so no text stored before lengths were recorded comes near
 * it, while a 400-byte bomb stops at 1 MiB, in milliseconds, instead of 500 MiB in minutes.
 */
function legacyLimit(body: Buffer): number {
  return Math.min(maxStoredTextBytes, Math.max(1024 * 1024, body.length * 1024));
}

/** A stored text that cannot be read back: damaged, unknown, or larger than it may be. */
export class StoredTextError extends Error {
  /** The body that failed, so the store can find which row holds it. */
  readonly body: Buffer;
  constructor(message: string, body: Buffer) {
    super(message);
    this.name = 'StoredTextError';
    this.body = body;
  }
}

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

/**
 * A text's blob body: a codec byte, then its byte length and brotli or, when that does not
 * save, the raw bytes.
 */
export function packText(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8');
  const compressed = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  if (compressed.length + 4 >= raw.length) return Buffer.concat([Buffer.of(CODEC_UTF8), raw]);
  const header = Buffer.alloc(5);
  header[0] = CODEC_BROTLI_SIZED;
  header.writeUInt32LE(raw.length, 1);
  return Buffer.concat([header, compressed]);
}

/** `payload` inflated to exactly `length` bytes at most; anything else is a StoredTextError. */
function inflate(body: Buffer, payload: Buffer, limit: number, exact: boolean): string {
  let raw: Buffer;
  try {
    raw = brotliDecompressSync(payload, { maxOutputLength: limit });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StoredTextError(
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `the stored text inflates to more than the ${String(limit)} bytes it may hold`
        : `the stored text is damaged (${(error as Error).message})`,
      body,
    );
  }
  if (exact && raw.length !== limit)
    throw new StoredTextError(
      `the stored text inflates to ${String(raw.length)} bytes, not the ${String(limit)} it records`,
      body,
    );
  return raw.toString('utf8');
}

/** The text a blob body holds; a StoredTextError when it cannot be read back within its limit. */
export function unpackText(body: Buffer): string {
  const codec = body[0];
  if (codec === CODEC_UTF8) return body.subarray(1).toString('utf8');
  if (codec === CODEC_BROTLI) return inflate(body, body.subarray(1), legacyLimit(body), false);
  if (codec === CODEC_BROTLI_SIZED && body.length >= 5) {
    const length = body.readUInt32LE(1);
    if (length > maxStoredTextBytes)
      throw new StoredTextError(
        `the stored text records ${String(length)} bytes, more than the ${String(maxStoredTextBytes)} a text may hold`,
        body,
      );
    return inflate(body, body.subarray(5), length, true);
  }
  throw new StoredTextError(`the stored text has an unknown codec ${String(codec)}`, body);
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
  const unpacked = new UnpackedTexts(unpackedMemoChars);
  db.function('cuelab_text_unpack', { deterministic: true }, (value: unknown) => {
    if (value === null) return null;
    if (!Buffer.isBuffer(value)) throw new TypeError('cuelab_text_unpack takes a blob body.');
    return unpacked.text(value);
  });
}

/** How many characters of inflated text each connection keeps (about 16 MB). */
const unpackedMemoChars = 8 * 2 ** 20;

/**
 * The texts a connection inflated lately, by their body's digest, up to a total length. An
 * export reads the same system prompt, tool list and tool outputs in rep after rep; inflating
 * each anew made a brotli decoder per row, and the garbage collector ran after their memory for
 * most of a bundle export's time (a profile at 3,528 reps: 4.6 of 10.5 s in GC). Oldest out.
 */
class UnpackedTexts {
  private readonly held = new Map<string, string>();
  private chars = 0;

  constructor(private readonly limit: number) {}

  text(body: Buffer): string {
    // A plain UTF-8 body costs no more to read than to look up.
    if (body[0] === CODEC_UTF8) return unpackText(body);
    const key = createHash('sha256').update(body).digest('base64');
    const held = this.held.get(key);
    if (held !== undefined) return held;
    const text = unpackText(body);
    if (text.length > this.limit / 8) return text;
    this.held.set(key, text);
    this.chars += text.length;
    for (const [oldest, dropped] of this.held) {
      if (this.chars <= this.limit) break;
      this.held.delete(oldest);
      this.chars -= dropped.length;
    }
    return text;
  }
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
