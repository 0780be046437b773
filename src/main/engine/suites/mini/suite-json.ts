/**
 * Suite JSON in the layout Prettier gives it (print width 100), so a regenerated file is
 * byte-identical to a formatted one: objects always open one key per line; an array of
 * primitives stays on one line when that line fits, else one element per line; an array that
 * holds an object breaks. Key order is the order the object was built in.
 */

const printWidth = 100;

/** `value` as formatted JSON text, with a final newline. */
export function formatSuiteJson(value: unknown): string {
  return `${print(value, '', 0)}\n`;
}

/**
 * Prints `value` whose first character sits after `prefix` columns on its line, followed by
 * `tail` characters (a comma) before the line may break.
 */
function print(value: unknown, indent: string, prefix: number, tail = 0): string {
  if (Array.isArray(value)) return printArray(value, indent, prefix, tail);
  if (value !== null && typeof value === 'object') return printObject(value, indent);
  return JSON.stringify(value) ?? 'null';
}

function printObject(value: object, indent: string): string {
  const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  const lines = entries.map(([key, entry], index) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    const tail = index < entries.length - 1 ? 1 : 0;
    return `${head}${print(entry, inner, head.length, tail)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function printArray(value: unknown[], indent: string, prefix: number, tail: number): string {
  if (value.length === 0) return '[]';
  const flat = value.every((entry) => entry === null || typeof entry !== 'object');
  if (flat) {
    const line = `[${value.map((entry) => JSON.stringify(entry)).join(', ')}]`;
    if (prefix + line.length + tail <= printWidth && !line.includes('\n')) return line;
  }
  const inner = `${indent}  `;
  const lines = value.map(
    (entry, index) =>
      `${inner}${print(entry, inner, inner.length, index < value.length - 1 ? 1 : 0)}`,
  );
  return `[\n${lines.join(',\n')}\n${indent}]`;
}
