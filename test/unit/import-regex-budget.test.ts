/**
 * The importers' parsers that read a stranger's text, on 1 MB of adversarial input: task.toml
 * values, Dockerfile WORKDIR lines, terminal escapes and pane splitting. A pattern that rescans
 * a run of spaces from each of its characters (`\s+#.*$`, `(.+?)\s*$`) is quadratic there and
 * takes tens of minutes at 1 MB, so this suite cannot finish; each case also asserts the
 * result, so the linear versions keep what the patterns did.
 */
import { describe, expect, it } from 'vitest';
import { dockerfileWorkdir } from '../../src/main/engine/suites/import/task-environment';
import { splitPane } from '../../src/main/engine/suites/import/terminal-pane';
import { plainText } from '../../src/main/engine/suites/import/terminal-steps';
import { readTomlScalars } from '../../src/main/engine/suites/import/toml';

const size = 1024 * 1024;
const spaces = ' '.repeat(size);
const escape = String.fromCharCode(27);

describe('importer parsers on 1 MB of hostile text', () => {
  it('task.toml: a long run of spaces before a comment, or before no comment', () => {
    const toml = [
      '[agent]',
      `timeout_sec = 600${spaces}# the agent's limit`,
      `memory = 2${spaces}x`,
      `note = "a${spaces}b"  # kept`,
      `#${spaces}`,
      `flag = true ${'#'.repeat(size)}`,
    ].join('\n');
    const values = readTomlScalars(toml);
    expect(values.get('agent.timeout_sec')).toBe(600);
    expect(values.has('agent.memory')).toBe(false);
    expect(values.get('agent.note')).toBe(`a${spaces}b`);
    expect(values.get('agent.flag')).toBe(true);
    expect(readTomlScalars(`n = 4${'\t#'.repeat(size / 2)}`).get('n')).toBe(4);
  });

  it('Dockerfile: WORKDIR with a long run of spaces inside and after its argument', () => {
    expect(dockerfileWorkdir(`FROM x\nWORKDIR /srv${spaces}\n`)).toBe('/srv');
    expect(dockerfileWorkdir(`WORKDIR /a${spaces}b`)).toBe(`/a${spaces}b`);
    expect(dockerfileWorkdir(`WORKDIR${spaces}`)).toBeUndefined();
    expect(dockerfileWorkdir(`WORKDIR /app\nWORKDIR${spaces}sub${spaces}`)).toBe('/app/sub');
    expect(dockerfileWorkdir(`${spaces}workdir  "/quoted"  `)).toBe('/quoted');
  });

  it('terminal output: unterminated escape sequences, repeated', () => {
    const csi = `${escape}[${'0;'.repeat(size / 2)}`;
    expect(plainText(`${csi}m done`)).toBe(' done');
    expect(plainText(csi)).toBe(csi);
    const osc = `${escape}]0;${'t'.repeat(size)}`;
    expect(plainText(osc)).toBe(osc);
    expect(plainText(`${escape}]0;title${String.fromCharCode(7)}text\r\nmore\r`)).toBe(
      'text\nmore\n',
    );
    const unfinished = `${escape}[1`.repeat(size / 3);
    expect(plainText(unfinished)).toBe(unfinished);
  });

  it('pane splitting: 1 MB of prompt lines and one command', () => {
    const prompt = 'root@box:/app# ';
    const pane = `${`${prompt}\n`.repeat(size / 16)}${prompt}ls -la\nfile.txt\n${prompt}`;
    const steps = splitPane(pane, ['ls -la']);
    expect(steps).toHaveLength(1);
    expect(steps[0]?.keystrokes).toEqual(['ls -la']);
    expect(steps[0]?.output).toContain('file.txt');
  });
});
