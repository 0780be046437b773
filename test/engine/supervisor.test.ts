/**
 * The engine supervisor against real child processes: small fake engines written to a temp
 * folder, and (once it is built) the real `out/main/cli.js serve`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  engineLaunch,
  EngineSupervisor,
  type EngineLaunch,
  type EngineSupervisorOptions,
} from '../../src/main/app/engine-supervisor';
import type { EngineChange } from '../../src/shared/native-bridge';

const cliPath = resolve(__dirname, '../../out/main/cli.js');

// Serves on a free port, says something on stderr, prints the ready line; SIGTERM ends it.
const fakeEngine = `
const http = require('node:http');
const token = require('node:crypto').randomBytes(16).toString('hex');
const server = http.createServer((request, response) => response.end('fake'));
server.listen(0, '127.0.0.1', () => {
  console.error('fake engine warming up');
  console.log('opening workspace');
  console.log('CueLab engine ready at http://127.0.0.1:' + server.address().port + '/?token=' + token + ' (workspace: /tmp)');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

// Never becomes ready; explains why on stderr and keeps running.
const silentEngine = `
console.error('opening workspace /nowhere');
console.error('database is locked by another CueLab');
setInterval(() => {}, 1000);
`;

// Ready, but ignores SIGTERM, so only SIGKILL ends it.
const stubbornEngine = `
process.on('SIGTERM', () => console.error('ignoring SIGTERM'));
console.log('CueLab engine ready at http://127.0.0.1:1/?token=${'a'.repeat(32)} (workspace: /tmp)');
setInterval(() => {}, 1000);
`;

let scratch: string;
const supervisors: EngineSupervisor[] = [];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cuelab-supervisor-'));
});

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function scriptLaunch(name: string, source: string): EngineLaunch {
  const path = join(scratch, `${name}.cjs`);
  writeFileSync(path, source);
  return { command: process.execPath, args: [path], env: { ...process.env } };
}

function supervise(options: EngineSupervisorOptions): EngineSupervisor {
  const supervisor = new EngineSupervisor({ initialBackoffMs: 50, ...options });
  supervisors.push(supervisor);
  return supervisor;
}

function nextReady(supervisor: EngineSupervisor): Promise<EngineChange> {
  return new Promise((resolve) => supervisor.once('ready', resolve));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function requirePid(supervisor: EngineSupervisor): number {
  const pid = supervisor.pid;
  if (pid === undefined) throw new Error('No engine is running.');
  return pid;
}

describe('EngineSupervisor with a fake engine', () => {
  it('restarts a killed engine with restarts=1, a new address and the reason', async () => {
    const supervisor = supervise({ launch: scriptLaunch('fake', fakeEngine) });
    const exits: string[] = [];
    supervisor.on('exit', (reason) => exits.push(reason));

    const first = await supervisor.start();
    expect(first.restarts).toBe(0);
    expect(first.reason).toBeUndefined();
    expect(first.address.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const firstPid = requirePid(supervisor);

    const restarted = nextReady(supervisor);
    process.kill(firstPid, 'SIGKILL');
    const second = await restarted;

    expect(second.restarts).toBe(1);
    expect(second.address).not.toEqual(first.address);
    expect(second.reason).toBe('The engine was killed by SIGKILL: fake engine warming up');
    expect(exits).toEqual([second.reason]);
    expect(isRunning(firstPid)).toBe(false);
    await expect(supervisor.whenReady()).resolves.toEqual(second);
    const answer = await fetch(second.address.baseUrl);
    expect(await answer.text()).toBe('fake');
  });

  it('gives up after the configured rapid failures with a clear error', async () => {
    const crashing = scriptLaunch(
      'crash',
      `console.error('no such table: runs'); process.exit(3);`,
    );
    const supervisor = supervise({ launch: crashing, maxRapidFailures: 3 });
    const failed = new Promise<Error>((resolve) => supervisor.once('failed', resolve));
    let exits = 0;
    supervisor.on('exit', () => (exits += 1));

    await expect(supervisor.start()).rejects.toThrow(
      'The CueLab engine failed 3 times in a row, so CueLab stopped restarting it. ' +
        'The engine exited with code 3: no such table: runs',
    );
    expect((await failed).message).toContain('no such table: runs');
    expect(exits).toBe(3);
    expect(supervisor.pid).toBeUndefined();
  });

  it('reports a start that prints no ready line, quoting stderr, and kills the process', async () => {
    const supervisor = supervise({
      launch: scriptLaunch('silent', silentEngine),
      readyTimeoutMs: 2_000,
      maxRapidFailures: 1,
    });
    const starting = supervisor.start();
    const pid = requirePid(supervisor);
    await expect(starting).rejects.toThrow(
      'The engine did not print its ready line within 2 s. Its last stderr lines:\n' +
        '  opening workspace /nowhere\n  database is locked by another CueLab',
    );
    expect(isRunning(pid)).toBe(false);
  });

  it('reports an engine command that cannot be started', async () => {
    const launch = { command: join(scratch, 'no-such-node'), args: [], env: {} };
    const supervisor = supervise({ launch, maxRapidFailures: 1 });
    await expect(supervisor.start()).rejects.toThrow(/could not be started \(spawn .*ENOENT\)/);
  });

  it('stop() ends the engine, leaves no child running and never restarts it', async () => {
    const supervisor = supervise({ launch: scriptLaunch('fake', fakeEngine) });
    let readies = 0;
    supervisor.on('ready', () => (readies += 1));
    await supervisor.start();
    const pid = requirePid(supervisor);

    await supervisor.stop();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    await new Promise((wait) => setTimeout(wait, 300));
    expect(supervisor.pid).toBeUndefined();
    expect(readies).toBe(1);
    await expect(supervisor.whenReady()).rejects.toThrow('The CueLab engine was stopped.');
    await expect(supervisor.start()).rejects.toThrow('The CueLab engine was stopped.');
  });

  it('stop() escalates to SIGKILL when the engine ignores SIGTERM', async () => {
    const supervisor = supervise({
      launch: scriptLaunch('stubborn', stubbornEngine),
      stopTimeoutMs: 300,
    });
    await supervisor.start();
    const pid = requirePid(supervisor);
    const began = Date.now();
    await supervisor.stop();
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(isRunning(pid)).toBe(false);
  });

  it('stop() during the restart delay cancels the restart', async () => {
    const supervisor = supervise({
      launch: scriptLaunch('fake', fakeEngine),
      initialBackoffMs: 200,
    });
    await supervisor.start();
    const exited = new Promise<void>((resolve) => supervisor.once('exit', () => resolve()));
    process.kill(requirePid(supervisor), 'SIGKILL');
    await exited;
    await supervisor.stop();
    await new Promise((wait) => setTimeout(wait, 400));
    expect(supervisor.pid).toBeUndefined();
  });
});

describe.skipIf(!existsSync(cliPath))('EngineSupervisor with the real engine', () => {
  it('brings a SIGKILLed engine back on a new address that answers /api/health', async () => {
    const workspace = join(scratch, 'workspace');
    const supervisor = supervise({ launch: engineLaunch({ cliPath, workspace }) });

    const first = await supervisor.start();
    await expectHealthy(first, workspace);
    const firstPid = requirePid(supervisor);

    const restarted = nextReady(supervisor);
    process.kill(firstPid, 'SIGKILL');
    const second = await restarted;
    expect(second.restarts).toBe(1);
    expect(second.reason).toMatch(/^The engine was killed by SIGKILL/);
    expect(second.address).not.toEqual(first.address);
    await expectHealthy(second, workspace);

    const unauthorized = await fetch(new URL('/api/health', second.address.baseUrl), {
      headers: { authorization: `Bearer ${first.address.token}` },
    });
    expect(unauthorized.status).toBe(401);

    const pid = requirePid(supervisor);
    await supervisor.stop();
    expect(isRunning(pid)).toBe(false);
  });
});

describe.skipIf(!existsSync(cliPath))('a folder the user chose in a native dialog', () => {
  it('becomes readable by path for the window, through a restart, and only by the shell', async () => {
    const workspace = join(scratch, 'workspace-chosen');
    const chosen = join(scratch, 'chosen');
    mkdirSync(chosen, { recursive: true });
    const suite = join(chosen, 'suite.json');
    copyFileSync(resolve(__dirname, '../fixtures/mini-suite.json'), suite);
    const supervisor = supervise({ launch: engineLaunch({ cliPath, workspace }) });
    const first = await supervisor.start();
    const before = await importByPath(first, suite);
    expect(before.status).toBe(403);
    expect(before.text).toContain('outside the folders');

    supervisor.allowFolder(chosen);
    // The folder travels over the engine's IPC channel: poll until it has arrived.
    let after = await importByPath(first, suite);
    for (let tries = 0; after.status === 403 && tries < 50; tries += 1) {
      await new Promise((done) => setTimeout(done, 100));
      after = await importByPath(first, suite);
    }
    expect(after.status).toBe(200);
    expect(after.text).toContain('fixture-suite');

    const restarted = nextReady(supervisor);
    process.kill(requirePid(supervisor), 'SIGKILL');
    const second = await restarted;
    let again = await importByPath(second, suite);
    for (let tries = 0; again.status === 403 && tries < 50; tries += 1) {
      await new Promise((done) => setTimeout(done, 100));
      again = await importByPath(second, suite);
    }
    expect(again.text).not.toContain('outside the folders');
  });
});

async function importByPath(
  change: EngineChange,
  path: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL('/api/importSuiteFile', change.address.baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${change.address.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ path }),
  });
  return { status: response.status, text: await response.text() };
}

async function expectHealthy(change: EngineChange, workspace: string): Promise<void> {
  const response = await fetch(new URL('/api/health', change.address.baseUrl), {
    headers: { authorization: `Bearer ${change.address.token}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { ok: boolean; value: { workspace: string } };
  expect(body.ok).toBe(true);
  expect(body.value.workspace).toBe(workspace);
}
