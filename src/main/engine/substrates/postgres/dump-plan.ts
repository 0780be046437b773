/**
 * A plain SQL dump (pg_dump's default format, or any SQL an item gives) as a list of
 * statements and COPY data, split the way `psql` splits a script, so the container's protocol
 * client (client-script.ts) can load it without `psql`. A psql meta-command (`\!`, `\c`,
 * `\copy`, `\i`, ...) is refused with its line: CueLab runs none while it prepares an image.
 * The two that only guard psql itself, `\restrict` and `\unrestrict` (newer pg_dump writes
 * them), are skipped. One pass, linear in the dump's length.
 */
import { EngineError } from '../../errors';

/** One statement to run, with the copy data that follows it when it is COPY ... FROM stdin. */
export interface DumpStep {
  sql: string;
  /** Line of the dump where the statement starts (1-based). */
  line: number;
  copy?: string;
}

const skippedMetaCommands = new Set(['restrict', 'unrestrict']);

function isIdentStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 0x80;
}

function isIdentChar(code: number): boolean {
  return isIdentStart(code) || (code >= 48 && code <= 57) || code === 36;
}

/** Per-statement state: where it starts, and what psql's heuristics need to know of it. */
interface Statement {
  start: number;
  firstCode: number;
  parens: number;
  // CREATE [OR REPLACE] FUNCTION|PROCEDURE ... BEGIN ATOMIC ... END holds semicolons.
  begins: number;
  words: string[];
  previousWord: string;
  fromStdin: boolean;
}

function freshStatement(start: number): Statement {
  return {
    start,
    firstCode: -1,
    parens: 0,
    begins: 0,
    words: [],
    previousWord: '',
    fromStdin: false,
  };
}

/** Splits `sql` into the steps psql would run; throws on a meta-command, naming its line. */
export function planDump(sql: string, what = 'the dump'): DumpStep[] {
  const lines = lineStarts(sql);
  const lineOf = (index: number) => lineAt(lines, index);
  const refuse = (index: number, problem: string): never => {
    throw new EngineError('bad_request', `${what}, line ${lineOf(index)}: ${problem}`);
  };
  const steps: DumpStep[] = [];
  let index = sql.charCodeAt(0) === 0xfeff ? 1 : 0;
  let statement = freshStatement(index);
  const finish = (end: number) => {
    if (statement.firstCode >= 0) {
      steps.push({ sql: sql.slice(statement.firstCode, end), line: lineOf(statement.firstCode) });
    }
  };
  const length = sql.length;
  while (index < length) {
    const code = sql.charCodeAt(index);
    const next = sql.charCodeAt(index + 1);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 12) {
      index += 1;
      continue;
    }
    if (code === 45 && next === 45) {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? length : end + 1;
      continue;
    }
    if (code === 47 && next === 42) {
      index = blockCommentEnd(sql, index);
      continue;
    }
    if (code === 92) {
      const word = /^\\([A-Za-z]+|[^A-Za-z\s]?)/.exec(sql.slice(index, index + 40))?.[1] ?? '';
      if (!skippedMetaCommands.has(word)) {
        refuse(
          index,
          `\`\\${word}\` is a psql meta-command. CueLab loads a dump as SQL only and runs no ` +
            'meta-command; remove it (a COPY ... FROM stdin needs none).',
        );
      }
      const end = sql.indexOf('\n', index);
      index = end < 0 ? length : end + 1;
      continue;
    }
    if (statement.firstCode < 0) statement.firstCode = index;
    if (code === 39) {
      index = quotedEnd(sql, index, 39, false);
    } else if (code === 34) {
      index = quotedEnd(sql, index, 34, false);
      statement.previousWord = '';
    } else if (code === 36) {
      index = dollarEnd(sql, index);
    } else if (isIdentStart(code)) {
      let end = index + 1;
      while (end < length && isIdentChar(sql.charCodeAt(end))) end += 1;
      const word = end - index <= 9 ? sql.slice(index, end).toLowerCase() : '';
      // E'...' holds backslash escapes.
      if (word === 'e' && sql.charCodeAt(end) === 39) {
        index = quotedEnd(sql, end, 39, true);
        continue;
      }
      noteWord(statement, word);
      index = end;
    } else if (code === 40) {
      statement.parens += 1;
      index += 1;
    } else if (code === 41) {
      statement.parens = Math.max(0, statement.parens - 1);
      index += 1;
    } else if (code === 59 && statement.parens === 0 && statement.begins === 0) {
      if (statement.firstCode === index) {
        // A lone ";" is an empty statement: nothing to run, nothing to reset.
        statement.firstCode = -1;
        index += 1;
        continue;
      }
      finish(index + 1);
      index += 1;
      if (isCopyFromStdin(statement)) {
        const copy = copyData(sql, index, refuse);
        const step = steps[steps.length - 1] as DumpStep;
        step.copy = copy.data;
        index = copy.next;
      }
      statement = freshStatement(index);
    } else {
      index += 1;
    }
  }
  finish(length);
  return steps;
}

function noteWord(statement: Statement, word: string): void {
  const { words } = statement;
  if (words.length < 4) words.push(word);
  const [first, second, third, fourth] = words;
  const defining =
    first === 'create' &&
    (second === 'function' ||
      second === 'procedure' ||
      (second === 'or' &&
        third === 'replace' &&
        (fourth === 'function' || fourth === 'procedure')));
  if (defining && statement.parens === 0) {
    if (word === 'begin') statement.begins += 1;
    else if (word === 'case' && statement.begins > 0) statement.begins += 1;
    else if (word === 'end' && statement.begins > 0) statement.begins -= 1;
  }
  if (statement.previousWord === 'from' && word === 'stdin') statement.fromStdin = true;
  statement.previousWord = word;
}

function isCopyFromStdin(statement: Statement): boolean {
  return statement.words[0] === 'copy' && statement.fromStdin;
}

/**
 * The copy data after `COPY ... FROM stdin;`: from the next line to a line that is `\.` (or
 * the end of the dump), as psql reads it.
 */
function copyData(
  sql: string,
  from: number,
  refuse: (index: number, problem: string) => never,
): { data: string; next: number } {
  const lineEnd = sql.indexOf('\n', from);
  const rest = sql.slice(from, lineEnd < 0 ? sql.length : lineEnd);
  if (rest.trim()) refuse(from, 'text follows COPY ... FROM stdin; on the same line');
  if (lineEnd < 0) return { data: '', next: sql.length };
  const start = lineEnd + 1;
  let search = start - 1;
  for (;;) {
    const found = sql.indexOf('\n\\.', search);
    if (found < 0) return { data: sql.slice(start), next: sql.length };
    const after = found + 3;
    const tail = sql.charCodeAt(after);
    const terminator =
      after >= sql.length || tail === 10 || (tail === 13 && sql.charCodeAt(after + 1) === 10);
    if (terminator && found + 1 >= start) {
      const data = sql.slice(start, found + 1);
      const end = sql.indexOf('\n', after);
      return { data, next: end < 0 ? sql.length : end + 1 };
    }
    search = found + 1;
  }
}

function blockCommentEnd(sql: string, from: number): number {
  let depth = 0;
  let index = from;
  while (index < sql.length) {
    const code = sql.charCodeAt(index);
    const next = sql.charCodeAt(index + 1);
    if (code === 47 && next === 42) {
      depth += 1;
      index += 2;
    } else if (code === 42 && next === 47) {
      depth -= 1;
      index += 2;
      if (depth === 0) return index;
    } else {
      index += 1;
    }
  }
  return sql.length;
}

/** The index after a quoted run opened at `from` (`''` or `""` doubles the quote). */
function quotedEnd(sql: string, from: number, quote: number, backslashes: boolean): number {
  let index = from + 1;
  while (index < sql.length) {
    const code = sql.charCodeAt(index);
    if (backslashes && code === 92) {
      index += 2;
    } else if (code === quote) {
      if (sql.charCodeAt(index + 1) !== quote) return index + 1;
      index += 2;
    } else {
      index += 1;
    }
  }
  return sql.length;
}

/** After `$`: a dollar-quoted string (`$tag$ ... $tag$`), or just the `$` of a parameter. */
function dollarEnd(sql: string, from: number): number {
  let index = from + 1;
  if (index < sql.length && isIdentStart(sql.charCodeAt(index))) {
    index += 1;
    while (index < sql.length) {
      const code = sql.charCodeAt(index);
      if (!isIdentStart(code) && !(code >= 48 && code <= 57)) break;
      index += 1;
    }
  }
  if (sql.charCodeAt(index) !== 36) return from + 1;
  const tag = sql.slice(from, index + 1);
  const close = sql.indexOf(tag, index + 1);
  return close < 0 ? sql.length : close + tag.length;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
    starts.push(index + 1);
  }
  return starts;
}

function lineAt(starts: readonly number[], index: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= index) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
