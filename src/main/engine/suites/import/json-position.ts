/**
 * Where JSON text stops being JSON. Node 20's JSON.parse errors often give no position; a
 * researcher fixing a 100 KB trajectory needs the line, so on a parse error this walks the
 * text once (values, strings, numbers, literals) and returns the offset of the first
 * character that cannot continue it.
 */

/** Offset of the first invalid character of `text`, or undefined when it is valid JSON. */
export function jsonErrorOffset(text: string): number | undefined {
  let index = 0;
  const space = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index]!)) index += 1;
  };
  const fail = (): never => {
    throw new JsonStop(index);
  };
  const value = (): void => {
    space();
    const char = text[index];
    if (char === '{') return container('}', true);
    if (char === '[') return container(']', false);
    if (char === '"') return string();
    if (char !== undefined && /[-0-9]/.test(char)) {
      const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
      if (!match) fail();
      index += match![0].length;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, index)) {
        index += literal.length;
        return;
      }
    }
    fail();
  };
  const string = () => {
    index += 1;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\\') index += 1;
      else if (text.charCodeAt(index) < 0x20) fail();
      index += 1;
    }
    if (index >= text.length) fail();
    index += 1;
  };
  const container = (close: string, keyed: boolean) => {
    index += 1;
    space();
    if (text[index] === close) {
      index += 1;
      return;
    }
    for (;;) {
      if (keyed) {
        space();
        if (text[index] !== '"') fail();
        string();
        space();
        if (text[index] !== ':') fail();
        index += 1;
      }
      value();
      space();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === close) {
        index += 1;
        return;
      }
      fail();
    }
  };
  try {
    value();
    space();
    return index < text.length ? index : undefined;
  } catch (error) {
    if (error instanceof JsonStop) return error.offset;
    throw error;
  }
}

class JsonStop extends Error {
  constructor(readonly offset: number) {
    super(`invalid JSON at ${offset}`);
  }
}
