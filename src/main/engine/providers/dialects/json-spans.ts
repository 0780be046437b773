/**
 * Finds the JSON objects (and arrays of objects) in free text: a model without a tool parser
 * writes its calls as JSON among prose or in ```json fences. One pass tracks depth and string
 * state; a brace that never closes (prose such as "use {x") costs one more pass from just after
 * it, at most `MAX_RESTARTS` times, so the scan stays linear in the text's length.
 */

/** A top-level `{…}` or `[{…}]` span, as [start, end) offsets. */
export interface JsonSpan {
  start: number;
  end: number;
}

const MAX_RESTARTS = 8;

function opensArray(text: string, at: number): boolean {
  for (let index = at + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '{') return true;
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') return false;
  }
  return false;
}

/** The balanced top-level spans of `text` from `from`, and where an unclosed one began. */
function scan(text: string, from: number): { spans: JsonSpan[]; unclosedAt: number | null } {
  const spans: JsonSpan[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (depth === 0) {
      if (char === '{' || (char === '[' && opensArray(text, index))) {
        depth = 1;
        start = index;
      }
      continue;
    }
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) spans.push({ start, end: index + 1 });
    }
  }
  return { spans, unclosedAt: depth > 0 ? start : null };
}

/** Every balanced top-level JSON-looking span of `text`, in order. */
export function jsonSpans(text: string): JsonSpan[] {
  const found: JsonSpan[] = [];
  let from = 0;
  for (let restart = 0; restart <= MAX_RESTARTS; restart += 1) {
    const { spans, unclosedAt } = scan(text, from);
    found.push(...spans);
    if (unclosedAt === null) break;
    from = unclosedAt + 1;
  }
  return found;
}

/** JSON.parse, or undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
