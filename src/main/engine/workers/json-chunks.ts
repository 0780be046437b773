/**
 * A value as JSON bytes, in chunks of about a megabyte, built in a worker: the engine's thread
 * then only writes them to the socket. Walking the value keeps each piece's text short (a long
 * string is one piece of its own), so an answer larger than the longest string V8 allows still
 * encodes, and no one string of the whole answer is ever held. The output is what
 * `JSON.stringify(value)` gives for plain data (objects, arrays, strings, numbers, booleans,
 * null; undefined members left out, undefined array entries as null).
 */
const chunkChars = 1 << 20;

/** `value` as UTF-8 JSON, in chunks each with an ArrayBuffer of its own (transferable). */
export function jsonChunks(value: unknown): Uint8Array[] {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let pending = '';
  const flush = (): void => {
    if (pending.length === 0) return;
    chunks.push(encoder.encode(pending));
    pending = '';
  };
  const emit = (text: string): void => {
    pending += text;
    if (pending.length >= chunkChars) flush();
  };
  const walk = (item: unknown): void => {
    if (Array.isArray(item)) {
      emit('[');
      item.forEach((entry, index) => {
        if (index > 0) emit(',');
        walk(entry);
      });
      emit(']');
      return;
    }
    if (item !== null && typeof item === 'object' && !hasToJson(item)) {
      emit('{');
      let first = true;
      for (const [key, entry] of Object.entries(item)) {
        if (entry === undefined || typeof entry === 'function') continue;
        emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        walk(entry);
      }
      emit('}');
      return;
    }
    // A lone undefined (or function) has no JSON; in an array JSON writes null for it.
    const text: string | undefined = JSON.stringify(item);
    emit(text ?? 'null');
  };
  walk(value);
  flush();
  return chunks;
}

function hasToJson(item: object): boolean {
  return typeof (item as { toJSON?: unknown }).toJSON === 'function';
}
