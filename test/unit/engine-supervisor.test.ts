import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createLineSplitter,
  createLineTail,
  describeExit,
  engineLaunch,
  readyTimeoutMessage,
  ReadyTimeoutError,
  selectNodeCommand,
  waitForReadyLine,
} from '../../src/main/app/engine-supervisor';

const token = 'f'.repeat(32);
const readyLine = `CueLab engine ready at http://127.0.0.1:4100/?token=${token} (workspace: /w)`;

function splitAll(chunks: (string | Buffer)[]): string[] {
  const lines: string[] = [];
  const splitter = createLineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('createLineSplitter', () => {
  it('joins a line that spans chunks and splits chunks that hold several lines', () => {
    expect(splitAll(['Cue', 'Lab en', 'gine\nsecond\nthi', 'rd\n'])).toEqual([
      'CueLab engine',
      'second',
      'third',
    ]);
  });

  it('strips CRLF endings, keeps empty lines and flushes a last line without newline', () => {
    expect(splitAll(['one\r\n\r\ntwo\r', '\nlast'])).toEqual(['one', '', 'two', 'last']);
  });

  it('decodes a UTF-8 character split across Buffer chunks', () => {
    const bytes = Buffer.from('Größe ✓\n', 'utf8');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ✓
    expect(splitAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(['Größe ✓']);
  });

  it('emits nothing for no input', () => {
    expect(splitAll([])).toEqual([]);
  });
});

describe('createLineTail', () => {
  it('keeps the last non-blank lines up to the limit', () => {
    const tail = createLineTail(2);
    for (const line of ['a', '  ', 'b', 'c']) tail.push(line);
    expect(tail.lines()).toEqual(['b', 'c']);
  });
});

describe('selectNodeCommand', () => {
  it('prefers the Node that ran npm', () => {
    expect(
      selectNodeCommand({ npm_node_execpath: '/opt/node/bin/node', NODE: '/usr/bin/node' }),
    ).toBe('/opt/node/bin/node');
  });

  it('falls back to NODE, then to node on PATH, ignoring empty values', () => {
    expect(selectNodeCommand({ npm_node_execpath: '', NODE: '/usr/bin/node' })).toBe(
      '/usr/bin/node',
    );
    expect(selectNodeCommand({ NODE: '  ' })).toBe('node');
    expect(selectNodeCommand({})).toBe('node');
  });
});

describe('engineLaunch', () => {
  it('runs cuelab serve on port 0 under Node, without ELECTRON_RUN_AS_NODE', () => {
    const launch = engineLaunch({
      cliPath: '/app/out/main/cli.js',
      env: { npm_node_execpath: '/n/node', ELECTRON_RUN_AS_NODE: '1', CUELAB_X: 'kept' },
    });
    expect(launch.command).toBe('/n/node');
    expect(launch.args).toEqual([
      '/app/out/main/cli.js',
      'serve',
      '--port',
      '0',
      '--exit-with-parent',
    ]);
    expect(launch.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
    expect(launch.env.CUELAB_X).toBe('kept');
  });

  it('passes the workspace when one is given', () => {
    const launch = engineLaunch({ cliPath: 'cli.js', workspace: '/w s', env: {} });
    expect(launch.args).toEqual([
      'cli.js',
      'serve',
      '--port',
      '0',
      '--exit-with-parent',
      '--workspace',
      '/w s',
    ]);
  });

  it('runs a packaged build with Electron as Node', () => {
    const launch = engineLaunch({
      cliPath: 'cli.js',
      runtime: { kind: 'electron-as-node', execPath: '/Applications/CueLab.app/CueLab' },
      env: { npm_node_execpath: '/n/node' },
    });
    expect(launch.command).toBe('/Applications/CueLab.app/CueLab');
    expect(launch.env.ELECTRON_RUN_AS_NODE).toBe('1');
  });

  it('does not change the environment it was given', () => {
    const env = { ELECTRON_RUN_AS_NODE: '1' };
    engineLaunch({ cliPath: 'cli.js', env });
    expect(env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 100].map((n) => backoffDelay(n, 500, 8000))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });
});

describe('describeExit', () => {
  it('names the exit code and the last stderr line', () => {
    expect(describeExit({ code: 3, signal: null }, ['warming up', 'database is locked'])).toBe(
      'The engine exited with code 3: database is locked',
    );
  });

  it('names the signal, and says so plainly without stderr', () => {
    expect(describeExit({ code: null, signal: 'SIGKILL' }, [])).toBe(
      'The engine was killed by SIGKILL.',
    );
  });

  it('says when the process could not be started', () => {
    const error = new Error('spawn /nope ENOENT');
    expect(describeExit({ code: null, signal: null, error }, [])).toBe(
      'The engine could not be started (spawn /nope ENOENT).',
    );
  });
});

describe('readyTimeoutMessage', () => {
  it('quotes the last stderr lines', () => {
    expect(readyTimeoutMessage(30_000, ['a', 'b'])).toBe(
      'The engine did not print its ready line within 30 s. Its last stderr lines:\n  a\n  b',
    );
    expect(readyTimeoutMessage(500, [])).toBe(
      'The engine did not print its ready line within 0.5 s. It wrote nothing to stderr.',
    );
  });
});

describe('waitForReadyLine', () => {
  it('resolves with the address once the ready line arrives, after other output', async () => {
    const stdout = new PassThrough();
    const waiting = waitForReadyLine(stdout, { timeoutMs: 5_000 });
    stdout.write('migrating workspace\n');
    stdout.write(readyLine.slice(0, 20));
    stdout.write(`${readyLine.slice(20)}\nserving\n`);
    await expect(waiting).resolves.toEqual({ baseUrl: 'http://127.0.0.1:4100/', token });
    expect(stdout.listenerCount('data')).toBe(0);
  });

  it('rejects with a ReadyTimeoutError when no ready line comes in time', async () => {
    const stdout = new PassThrough();
    const waiting = waitForReadyLine(stdout, { timeoutMs: 20 });
    stdout.write('still starting\n');
    await expect(waiting).rejects.toBeInstanceOf(ReadyTimeoutError);
  });

  it('rejects when the output ends first', async () => {
    const stdout = new PassThrough();
    const waiting = waitForReadyLine(stdout, { timeoutMs: 5_000 });
    stdout.end('bye\n');
    stdout.resume();
    await expect(waiting).rejects.toThrow(/closed its output before printing a ready line/);
  });

  it('rejects with the abort reason', async () => {
    const stdout = new PassThrough();
    const controller = new AbortController();
    const waiting = waitForReadyLine(stdout, { timeoutMs: 5_000, signal: controller.signal });
    controller.abort(new Error('exited with code 1'));
    await expect(waiting).rejects.toThrow('exited with code 1');
  });
});
