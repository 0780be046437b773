import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  closestName,
  editDistance,
  optionsInUsage,
  plainParseError,
} from '../../src/main/cli/suggest';
import { countOf } from '../../src/main/cli/words';

function parseError(args: string[]): unknown {
  try {
    parseArgs({
      args,
      options: { table: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    });
  } catch (error) {
    return error;
  }
  throw new Error('parseArgs accepted the arguments');
}

describe('did you mean', () => {
  it('counts a swap of neighbouring letters as one edit (Damerau-Levenshtein)', () => {
    expect(editDistance('tabel', 'table')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'run')).toBe(3);
    expect(editDistance('report', 'report')).toBe(0);
  });

  it('suggests the nearest known name only when it is near enough', () => {
    const commands = ['serve', 'demo', 'run', 'status', 'report', 'suite'];
    expect(closestName('stauts', commands)).toBe('status');
    expect(closestName('reprot', commands)).toBe('report');
    expect(closestName('rn', commands)).toBe('run');
    expect(closestName('--tabel', ['--table', '--format'])).toBe('--table');
    expect(closestName('frobnicate', commands)).toBeNull();
    expect(closestName('xyz', commands)).toBeNull();
  });

  it('reads the options a usage text lists', () => {
    expect(optionsInUsage('Usage: x --table TABLE [--format md|csv] [--table]')).toEqual([
      '--table',
      '--format',
    ]);
  });

  it("puts parseArgs errors in plain words, with a suggestion, never Node's wording", () => {
    const usage = 'Usage: cuelab report STUDY --table TABLE [--format md] [--json]';
    expect(plainParseError(parseError(['--tabel']), usage)).toBe(
      'unknown option "--tabel". Did you mean "--table"?',
    );
    expect(plainParseError(parseError(['--zzzzzz']), usage)).toBe('unknown option "--zzzzzz".');
    expect(plainParseError(parseError(['--table']), usage)).toBe('--table needs a value.');
    expect(plainParseError(parseError(['--json=yes']), usage)).toBe('--json takes no value.');
    expect(plainParseError(new Error('other'), usage)).toBeNull();
  });

  it('writes counted nouns in the singular for one', () => {
    expect(countOf(1, 'judge')).toBe('1 judge');
    expect(countOf(2, 'judge')).toBe('2 judges');
    expect(countOf(0, 'item')).toBe('0 items');
  });
});
