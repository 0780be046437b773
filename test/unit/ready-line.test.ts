import { describe, expect, it } from 'vitest';
import { formatReadyLine, parseReadyLine } from '../../src/shared/ready-line';

const token = '0123456789abcdef0123456789abcdef';
const address = { baseUrl: 'http://127.0.0.1:43121/', token };

describe('ready line', () => {
  it('round-trips an address through format and parse', () => {
    const line = formatReadyLine(address, '/home/ada/CueLab');
    expect(line).toBe(
      `CueLab engine ready at http://127.0.0.1:43121/?token=${token} (workspace: /home/ada/CueLab)`,
    );
    expect(parseReadyLine(line)).toEqual(address);
  });

  it('parses a line with surrounding whitespace and a CRLF ending', () => {
    expect(parseReadyLine(`  ${formatReadyLine(address, 'C:\\work')}\r\n`)).toEqual(address);
  });

  it('keeps a workspace path with spaces and parentheses out of the address', () => {
    const line = formatReadyLine(address, '/tmp/my lab (copy)');
    expect(parseReadyLine(line)).toEqual(address);
  });

  it.each([
    ['an empty line', ''],
    ['another log line', 'CueLab engine starting'],
    ['a prefixed line', `[log] CueLab engine ready at http://127.0.0.1:1/?token=${token}`],
    ['a non-loopback host', `CueLab engine ready at http://0.0.0.0:43121/?token=${token}`],
    ['localhost by name', `CueLab engine ready at http://localhost:43121/?token=${token}`],
    ['https', `CueLab engine ready at https://127.0.0.1:43121/?token=${token}`],
    ['a missing port', `CueLab engine ready at http://127.0.0.1/?token=${token}`],
    ['a missing token', 'CueLab engine ready at http://127.0.0.1:43121/'],
    [
      'an upper-case token',
      `CueLab engine ready at http://127.0.0.1:1/?token=${token.toUpperCase()}`,
    ],
  ])('rejects %s', (_name, line) => {
    expect(parseReadyLine(line)).toBeNull();
  });

  it('accepts tokens of 32 hex digits or more and rejects shorter ones', () => {
    const lineWith = (candidate: string): string =>
      `CueLab engine ready at http://127.0.0.1:5000/?token=${candidate} (workspace: /w)`;
    expect(parseReadyLine(lineWith('a'.repeat(32)))?.token).toBe('a'.repeat(32));
    expect(parseReadyLine(lineWith('b'.repeat(64)))?.token).toBe('b'.repeat(64));
    expect(parseReadyLine(lineWith('c'.repeat(31)))).toBeNull();
  });

  it('does not let non-hex characters extend the token', () => {
    const line = `CueLab engine ready at http://127.0.0.1:5000/?token=${token}zz (workspace: /w)`;
    expect(parseReadyLine(line)).toBeNull();
  });
});
