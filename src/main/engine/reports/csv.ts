/**
 * CSV as RFC 4180 describes it: fields separated by commas, records by line breaks, a field that
 * holds a comma, quote or line break is quoted and its quotes doubled. We also take a leading BOM
 * (spreadsheets write one), LF and lone CR line endings, and skip empty lines. A quoted field may
 * span lines, so a record is numbered by the line it starts on — the number a person sees in an
 * editor.
 */
import { redactKeyText } from '../secrets';

/** One record and the line it starts on (1-based, the header included). */
export interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

/** A record that could not be read, with the reason. */
export interface CsvProblem {
  readonly line: number;
  readonly message: string;
}

/** The records of a CSV text, and the records that were malformed. */
export interface CsvParse {
  readonly records: CsvRecord[];
  readonly problems: CsvProblem[];
}

/** Line breaks in a piece of text, counting CRLF once and a lone CR as a break. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10) count += 1;
    else if (code === 13 && text.charCodeAt(index + 1) !== 10) count += 1;
  }
  return count;
}

function isBreak(char: string | undefined): boolean {
  return char === '\n' || char === '\r';
}

/** Parses CSV text into records; malformed records are reported, not returned. */
export function parseCsv(text: string): CsvParse {
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const length = text.length;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  /** Consumes one line break at `index`, if there is one. */
  const consumeBreak = () => {
    if (text[index] === '\r') index += text[index + 1] === '\n' ? 2 : 1;
    else if (text[index] === '\n') index += 1;
    else return;
    line += 1;
  };
  /** Skips the rest of a malformed record's physical line. */
  const skipLine = () => {
    while (index < length && !isBreak(text[index])) index += 1;
    consumeBreak();
  };

  while (index < length) {
    if (isBreak(text[index])) {
      consumeBreak();
      continue;
    }
    const start = line;
    const fields: string[] = [];
    let problem: string | null = null;
    for (;;) {
      if (text[index] === '"') {
        let value = '';
        let cursor = index + 1;
        let closed = false;
        for (;;) {
          const quote = text.indexOf('"', cursor);
          if (quote < 0) break;
          value += text.slice(cursor, quote);
          if (text[quote + 1] === '"') {
            value += '"';
            cursor = quote + 2;
            continue;
          }
          cursor = quote + 1;
          closed = true;
          break;
        }
        if (!closed) {
          problem = `field ${fields.length + 1} opens a quote that is never closed`;
          index = length;
          break;
        }
        line += lineBreaks(value);
        index = cursor;
        fields.push(value);
        if (index < length && text[index] !== ',' && !isBreak(text[index])) {
          problem = `field ${fields.length} has text after its closing quote`;
          skipLine();
          break;
        }
      } else {
        const begin = index;
        while (index < length && text[index] !== ',' && !isBreak(text[index])) index += 1;
        fields.push(text.slice(begin, index));
      }
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      consumeBreak();
      break;
    }
    if (problem === null) records.push({ line: start, fields });
    else problems.push({ line: start, message: problem });
  }
  return { records, problems };
}

/** A plain number (`-0.5`, `+3`, `1e-3`): no spreadsheet reads it as a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Where a spreadsheet may start a new cell inside a field: after every character some locale or
 * import dialog takes as a separator (`;` in semicolon locales, `,`, tab) or a line break. The
 * piece that follows each one is checked on its own, like the start of the field.
 */
const AFTER_SEPARATOR = /([;,\t\r\n])([^;,\t\r\n]*)/g;

/** A first character that makes a spreadsheet read the cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A piece defuseFormula prefixed: one or more `'` before a formula character. */
const DEFUSED_START = /^'+[=+\-@\t\r]/;

/** Whether a piece needs a `'`: it would start a formula, or already has `'`s before one. */
function needsPrefix(piece: string): boolean {
  if (!FORMULA_START.test(piece)) return false;
  return piece.startsWith("'") || !PLAIN_NUMBER.test(piece);
}

/**
 * Defuses a cell a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`)
 * by prefixing `'`, as OWASP's CSV-injection guidance recommends, at the start and after every
 * `;`, `,`, tab and line break (`j;=1+1` becomes `j;'=1+1`, which a semicolon locale splits
 * into two harmless cells). Plain numbers such as `-0.5` stay numbers: they cannot be formulas
 * and numeric columns must keep reading as numbers. A piece that already starts with `'`s before
 * a formula character gets one more, so restoreFormula gives back exactly what was written.
 */
export function defuseFormula(value: string): string {
  const inner = value.replace(AFTER_SEPARATOR, (whole, separator: string, piece: string) =>
    needsPrefix(piece) ? `${separator}'${piece}` : whole,
  );
  return needsPrefix(value) ? `'${inner}` : inner;
}

/** Undoes defuseFormula on a cell read back from a file this app wrote. */
export function restoreFormula(value: string): string {
  const start = DEFUSED_START.test(value) ? value.slice(1) : value;
  return start.replace(AFTER_SEPARATOR, (whole, separator: string, piece: string) =>
    DEFUSED_START.test(piece) ? `${separator}${piece.slice(1)}` : whole,
  );
}

/**
 * One field, formula-defused, then quoted when it holds a quote, a line break or any separator
 * a spreadsheet might split on (`,` per RFC 4180, and `;` and tab for other locales). Every CSV
 * this app writes goes through here.
 */
export function csvField(value: string): string {
  const safe = defuseFormula(value);
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Records as RFC 4180 text, keys redacted and formula cells defused: CRLF after every record.
 * Every CSV the app writes (reports, label sheets) is made here.
 */
export function formatCsvRecords(records: readonly (readonly string[])[]): string {
  return records
    .map((fields) => `${fields.map((field) => csvField(redactKeyText(field))).join(',')}\r\n`)
    .join('');
}
