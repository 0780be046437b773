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
  const bare = text.replace(/\s+#.*$/, '');
  if (bare === 'true' || bare === 'false') return bare === 'true';
  if (/^[+-]?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?$/.test(bare)) return Number(bare.replace(/_/g, ''));
  return undefined;
}
