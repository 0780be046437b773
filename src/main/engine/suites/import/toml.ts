/**
 * The few TOML values an importer needs from a Harbor `task.toml` (no new dependency): `key =
 * value` lines under `[table]` headers, where a value is a basic or literal string, a number or
 * a boolean. Anything else (arrays, inline tables, multi-line strings) is skipped, not guessed.
 */

/** A scalar TOML value. */
export type TomlScalar = string | number | boolean;

/** `table.key` → value for every scalar the text holds (top-level keys have no prefix). */
export function readTomlScalars(text: string): Map<string, TomlScalar> {
  const values = new Map<string, TomlScalar>();
  let table = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[\s*([A-Za-z0-9_.-]+)\s*\]$/.exec(line);
    if (header) {
      table = header[1]!;
      continue;
    }
    if (line.startsWith('[')) {
      table = '\u0000'; // an array of tables: its keys are not read
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!pair || table === '\u0000') continue;
    const value = scalar(pair[2]!);
    if (value !== undefined) values.set(table ? `${table}.${pair[1]!}` : pair[1]!, value);
  }
  return values;
}

function scalar(text: string): TomlScalar | undefined {
  const basic = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(text);
  if (basic) {
    try {
      return JSON.parse(`"${basic[1]!}"`) as string;
    } catch {
      return undefined;
    }
  }
  const literal = /^'([^']*)'\s*(#.*)?$/.exec(text);
  if (literal) return literal[1]!;
  const bare = withoutComment(text);
  if (bare === 'true' || bare === 'false') return bare === 'true';
  if (/^[+-]?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?$/.test(bare)) return Number(bare.replace(/_/g, ''));
  return undefined;
}

/**
 * `text` without a trailing `  # comment` (whitespace, then `#`, then the rest), as
 * `text.replace(/\s+#.*$/, '')` did but in linear time: that pattern rescans a run of spaces
 * from each of its characters, quadratic on a long run in a stranger's task.toml. The text is
 * one trimmed line, so the rest after `#` never holds a line break.
 */
function withoutComment(text: string): string {
  for (let hash = text.indexOf('#'); hash >= 0; hash = text.indexOf('#', hash + 1)) {
    if (hash === 0 || !/\s/.test(text.charAt(hash - 1))) continue;
    let start = hash - 1;
    while (start > 0 && /\s/.test(text.charAt(start - 1))) start -= 1;
    return text.slice(0, start);
  }
  return text;
}
