/**
 * A token holder may make the served engine read only files inside the
 * roots its user allowed (the workspace, uploads staged on it, `--allow-path` folders), only
 * regular files, and no refusal quotes what a file holds. A real `cuelab serve` over HTTP.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import type { EngineAddress } from '../../src/shared/lab-client';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const suiteFile = join(root, 'test', 'fixtures', 'mini-suite.json');
const PASSWD = '/etc/passwd';
/** What /etc/passwd starts with: no answer may carry it. */
const PASSWD_HEAD = 'root:x';

/** The path-taking methods, each with `path` put where the method reads it. */
const pathRequests = (path: string): [string, Record<string, unknown>][] => [
  ['importSuiteFile', { path }],
  ['importResults', { path }],
  ['importLabels', { path }],
  ['openBundle', { path }],
  ['importRuns', { path, format: 'auto', save: false }],
  ['previewItemPrompt', { suitePath: path, itemId: 'x' }],
];

describe('paths a token holder names over HTTP', () => {
  const workspace = makeTempDir();
  const allowed = makeTempDir();
  let serve: ChildProcess;
  let address: EngineAddress;
  let fifo: string;

  /** POSTs one LabApi call; a hung engine fails the test at the signal, not the suite. */
  async function call(method: string, body: unknown) {
    const response = await fetch(`${address.baseUrl}api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${address.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
  }

  beforeAll(async () => {
    if (!existsSync(join(root, 'out', 'main', 'cli.js')))
      throw new Error('out/main/cli.js is missing: run "npx electron-vite build" first.');
    fifo = join(workspace.path, 'suite.fifo');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(PASSWD, join(workspace.path, 'passwd-link.json'));
    writeFileSync(join(allowed.path, 'chosen-suite.json'), readFileSync(suiteFile));
    serve = spawn(process.execPath, [
      ...[bin, 'serve', '--port', '0', '--workspace', workspace.path],
      ...['--allow-path', allowed.path],
    ]);
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      serve.stdout?.setEncoding('utf8');
      serve.stdout?.on('data', (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        if (newline >= 0) resolve(buffered.slice(0, newline));
      });
      serve.once('exit', (code) => reject(new Error(`cuelab serve exited early (${code})`)));
    });
    const parsed = parseReadyLine(line);
    if (!parsed) throw new Error(`not a ready line: ${line}`);
    address = parsed;
  });
  afterAll(async () => {
    if (serve.exitCode === null) {
      const exited = new Promise((resolve) => serve.once('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
    }
    workspace.remove();
    allowed.remove();
  });

  it('refuses /etc/passwd on every path method without quoting it', async () => {
    for (const [method, body] of pathRequests(PASSWD)) {
      const answer = await call(method, body);
      expect(answer.status, method).toBe(403);
      expect(answer.json.ok, method).toBe(false);
      expect(answer.text, method).toContain('outside the folders this engine may read');
      expect(answer.text, method).not.toContain(PASSWD_HEAD);
    }
  });

  it('refuses a symlink in the workspace that leads outside it', async () => {
    const answer = await call('importSuiteFile', {
      path: join(workspace.path, 'passwd-link.json'),
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('outside the folders');
    expect(answer.text).not.toContain(PASSWD_HEAD);
  });

  it('refuses a FIFO in the workspace at once, and keeps answering', async () => {
    for (const [method, body] of pathRequests(fifo)) {
      const answer = await call(method, body);
      expect(answer.status, method).toBe(403);
      expect(answer.text, method).toContain('FIFO');
    }
    expect((await call('health', {})).json.ok).toBe(true);
  });

  it('accepts a suite file staged as an upload, and one in an --allow-path folder', async () => {
    const staged = await call('uploadImportFiles', {
      name: 'suite',
      pieces: [
        {
          path: 'mini-suite.json',
          data: readFileSync(suiteFile).toString('base64'),
          append: false,
        },
      ],
    });
    expect(staged.json.ok).toBe(true);
    const folder = (staged.json.value as { path: string }).path;
    const imported = await call('importSuiteFile', { path: join(folder, 'mini-suite.json') });
    expect(imported.json).toMatchObject({ ok: true, value: { suiteId: 'fixture-suite' } });
    const chosen = await call('importSuiteFile', {
      path: join(allowed.path, 'chosen-suite.json'),
    });
    expect(chosen.json).toMatchObject({ ok: true, value: { suiteId: 'fixture-suite' } });
  });

  it('reads a file in the workspace, and names a bad one without quoting it', async () => {
    mkdirSync(join(workspace.path, 'inbox'), { recursive: true });
    const copied = join(workspace.path, 'inbox', 'not-a-suite.json');
    writeFileSync(copied, readFileSync(PASSWD));
    const answer = await call('importSuiteFile', { path: copied });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('is not valid JSON');
    expect(answer.text).not.toContain(PASSWD_HEAD);
  });
});

describe('paths the command line names in process', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('reads any path (its user is the local user) but refuses a FIFO and never quotes a file', async () => {
    const engine = createEngine({ path: dir.path, source: 'flag' });
    try {
      const fifo = join(dir.path, 'labels.fifo');
      execFileSync('mkfifo', [fifo]);
      // Suite, labels and results files are read on the engine's files worker: the refusal
      // crosses back.
      await expect(engine.handlers.importSuiteFile({ path: fifo })).rejects.toThrow(/FIFO/);
      await expect(engine.handlers.importLabels({ path: fifo })).rejects.toThrow(/FIFO/);
      await expect(engine.handlers.importResults({ path: fifo })).rejects.toThrow(/FIFO/);
      let message = '';
      try {
        await engine.handlers.importSuiteFile({ path: PASSWD });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('is not valid JSON');
      expect(message).not.toContain(PASSWD_HEAD);
    } finally {
      engine.close();
    }
  });
});
