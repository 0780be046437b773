/**
 * The browser lab's Import screen reads folders by path without `--allow-path`: the
 * workspace's, the example runs CueLab ships, and folders the user adds in Settings (kept in
 * the workspace across restarts). A peer that is not this machine still reads uploads only and
 * cannot add folders. A real `cuelab serve` over HTTP; the remote peer is a real connection
 * from this machine's non-loopback address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineAddress } from '../../src/shared/lab-client';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const suiteFile = join(root, 'test', 'fixtures', 'mini-suite.json');
const exampleRun = join(root, 'resources', 'runs', 'terminal-bench-hello-world');

interface Answer {
  status: number;
  json: { ok: boolean; value?: unknown; error?: { message: string } };
}

/** This machine's first non-loopback IPv4 address: connections from it are not loopback. */
function outsideAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal);
  if (!found) throw new Error('This machine has no non-loopback IPv4 address to test from.');
  return found.address;
}

/** One LabApi POST, from `localAddress` when given (a peer that is not loopback). */
function call(
  address: EngineAddress,
  method: string,
  body: unknown,
  localAddress?: string,
): Promise<Answer> {
  const url = new URL(`api/${method}`, address.baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        ...(localAddress ? { localAddress } : {}),
        headers: {
          authorization: `Bearer ${address.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
        timeout: 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) as Answer['json'] }),
        );
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`${method}: no answer in 30 s`)));
    sent.on('error', reject);
    sent.end(payload);
  });
}

async function startServe(
  workspace: string,
): Promise<{ serve: ChildProcess; address: EngineAddress }> {
  if (!existsSync(join(root, 'out', 'main', 'cli.js')))
    throw new Error('out/main/cli.js is missing: run "npx electron-vite build" first.');
  const serve = spawn(process.execPath, [bin, 'serve', '--port', '0', '--workspace', workspace]);
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
  const address = parseReadyLine(line);
  if (!address) throw new Error(`not a ready line: ${line}`);
  return { serve, address };
}

async function stop(serve: ChildProcess): Promise<void> {
  if (serve.exitCode !== null) return;
  const exited = new Promise((resolve) => serve.once('exit', resolve));
  serve.kill('SIGTERM');
  await exited;
}

const previewRuns = (path: string) => ({ path, format: 'auto', save: false });

describe('import folders of a served engine', () => {
  const workspace = makeTempDir();
  const chosen = makeTempDir();
  const running: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map(stop));
    workspace.remove();
    chosen.remove();
  });

  it('reads the example runs and a folder added in Settings from loopback, across a restart', async () => {
    writeFileSync(join(chosen.path, 'chosen-suite.json'), readFileSync(suiteFile));
    const first = await startServe(workspace.path);
    running.push(first.serve);
    const examples = await call(first.address, 'importRuns', previewRuns(exampleRun));
    expect(examples.json).toMatchObject({ ok: true, value: { saved: false } });
    expect((examples.json.value as { imported: unknown[] }).imported.length).toBeGreaterThan(0);

    const suite = { path: join(chosen.path, 'chosen-suite.json') };
    const before = await call(first.address, 'importSuiteFile', suite);
    expect(before.status).toBe(403);
    expect(before.json.error?.message).toContain('folders added in Settings');

    const added = await call(first.address, 'addImportFolder', { path: chosen.path });
    expect(added.json.ok).toBe(true);
    expect(added.json.value).toEqual(
      expect.arrayContaining([
        { path: workspace.path, source: 'workspace' },
        { path: chosen.path, source: 'settings' },
        expect.objectContaining({ source: 'examples' }),
      ]),
    );
    expect((await call(first.address, 'importSuiteFile', suite)).json).toMatchObject({
      ok: true,
      value: { suiteId: 'fixture-suite' },
    });
    await stop(first.serve);

    // Kept in the workspace: a later engine on it reads the folder too, until it is removed.
    const second = await startServe(workspace.path);
    running.push(second.serve);
    expect((await call(second.address, 'importSuiteFile', suite)).json.ok).toBe(true);
    const removed = await call(second.address, 'removeImportFolder', { path: chosen.path });
    expect(removed.json.ok).toBe(true);
    expect(JSON.stringify(removed.json.value)).not.toContain(chosen.path);
    expect((await call(second.address, 'importSuiteFile', suite)).status).toBe(403);

    const notFolder = await call(second.address, 'addImportFolder', { path: suite.path });
    expect(notFolder.status).toBe(400);
    expect(notFolder.json.error?.message).toContain('is not a folder');
  });

  it('lets a peer from another machine upload, but neither read the folders nor add one', async () => {
    const { serve, address } = await startServe(workspace.path);
    running.push(serve);
    const outside = outsideAddress();
    const examples = await call(address, 'importRuns', previewRuns(exampleRun), outside);
    expect(examples.status).toBe(403);
    expect(examples.json.error?.message).toContain('reads uploads only');

    const add = await call(address, 'addImportFolder', { path: chosen.path }, outside);
    expect(add.status).toBe(403);
    expect(add.json.error?.message).toContain('cannot add or remove import folders');
    const listed = await call(address, 'listImportFolders', {});
    expect(JSON.stringify(listed.json.value)).not.toContain(chosen.path);

    const staged = await call(
      address,
      'uploadImportFiles',
      {
        name: 'suite',
        pieces: [
          {
            path: 'mini-suite.json',
            data: readFileSync(suiteFile).toString('base64'),
            append: false,
          },
        ],
      },
      outside,
    );
    expect(staged.json.ok).toBe(true);
    const folder = (staged.json.value as { path: string }).path;
    const imported = await call(
      address,
      'importSuiteFile',
      { path: join(folder, 'mini-suite.json') },
      outside,
    );
    expect(imported.json).toMatchObject({ ok: true, value: { suiteId: 'fixture-suite' } });
  });
});
