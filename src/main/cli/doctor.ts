/**
 * `cuelab doctor`: what this machine has for CueLab, each with the fix when it is missing —
 * Node, Docker and its images, disk space at the workspace, a Chromium for PDF figures and
 * the tests, and the providers' API keys. Nothing is changed; only Node too old fails it.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from './command';
import { exitCodes } from './command';
import { workspaceForProcess } from '../engine/engine';
import {
  baseImageTag,
  bootstrapImageTag,
  createDockerClient,
  DEFAULT_API_KEY_ENV,
  findBaseImage,
  findPostgresImage,
  formatBytes,
  probeDocker,
} from '../engine/machine';
import { postgresName } from '../../shared/substrates/postgres';

/** The oldest Node the engine and CLI run on (package.json "engines"). */
const minimumNode = [20, 10] as const;
/** Below this much free space at the workspace, a study may stop for a full disk. */
const lowDiskBytes = 2 * 1024 ** 3;
const chromiumCandidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

type Mark = 'ok' | 'warn' | 'fail';

function line(io: CliIo, mark: Mark, what: string, detail: string, fix?: string): void {
  const sign = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' }[mark];
  io.out(`[${sign}] ${what}: ${detail}`);
  if (fix && mark !== 'ok') for (const row of fix.split('\n')) io.out(`       fix: ${row}`);
}

function nodeCheck(io: CliIo): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1]);
  line(
    io,
    ok ? 'ok' : 'fail',
    'Node',
    `${process.versions.node} (needs ${minimumNode.join('.')} or newer)`,
    'Install Node 22 LTS from https://nodejs.org (or: nvm install 22).',
  );
  return ok;
}

async function dockerChecks(io: CliIo): Promise<void> {
  const docker = createDockerClient();
  const status = await probeDocker(5000, docker);
  if (!status.available) {
    line(
      io,
      'warn',
      'Docker',
      `${status.problem ?? 'not reachable.'} Without it, cuelab demo and studies judge only the items that need no container (web, files, SQLite, trajectory-only).`,
      status.fix,
    );
    return;
  }
  line(io, 'ok', 'Docker', `engine ${status.version ?? 'unknown'}`);
  const base = await findBaseImage(docker);
  line(
    io,
    base ? 'ok' : 'warn',
    'Base image',
    base
      ? `${baseImageTag()} (${formatBytes(base.Size)})`
      : `${baseImageTag()} absent (built on first need, about a minute)`,
    'cuelab env bootstrap',
  );
  const postgres = await findPostgresImage(docker);
  const tag = bootstrapImageTag(postgresName);
  line(
    io,
    postgres ? 'ok' : 'warn',
    'PostgreSQL image',
    postgres
      ? `${tag} (${formatBytes(postgres.Size)})`
      : `${tag} absent (only PostgreSQL items need it)`,
    'cuelab env bootstrap --postgres',
  );
}

function diskCheck(io: CliIo, workspace: string): void {
  // The workspace may not exist yet: measure the nearest folder that does.
  let folder = workspace;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    const stats = statfsSync(folder);
    const free = stats.bavail * stats.bsize;
    line(
      io,
      free >= lowDiskBytes ? 'ok' : 'warn',
      'Disk',
      `${formatBytes(free)} free at ${workspace}`,
      `Free space there, or put the workspace elsewhere: cuelab --workspace DIR … (or CUELAB_WORKSPACE=DIR)`,
    );
  } catch (error) {
    line(io, 'warn', 'Disk', `cannot measure ${folder}: ${(error as Error).message}`);
  }
}

function chromiumCheck(io: CliIo): void {
  const found = [process.env.CHROMIUM_PATH, ...chromiumCandidates].find(
    (path): path is string => Boolean(path) && existsSync(path as string),
  );
  line(
    io,
    found ? 'ok' : 'warn',
    'Chromium (PDF figures, end-to-end tests)',
    found ?? 'not found; PNG and SVG exports and the lab work without it',
    'sudo apt-get install -y chromium (or set CHROMIUM_PATH); any browser can also print a figure to PDF',
  );
}

function keyChecks(io: CliIo): void {
  const variables = [...new Set(Object.values(DEFAULT_API_KEY_ENV).filter(Boolean))] as string[];
  const set = variables.filter((name) => (process.env[name] ?? '') !== '');
  line(
    io,
    set.length ? 'ok' : 'warn',
    'API keys',
    set.length
      ? `${set.join(', ')} set (values not shown)`
      : `none of ${variables.join(', ')} is set; the synthetic judge needs none`,
    'export ANTHROPIC_API_KEY=… (or another provider’s variable), or add a key in the lab’s Settings',
  );
}

/** `cuelab doctor`. */
export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'Check Node, Docker, images, disk, Chromium and API keys, with the fix for each',
  local: true,
  usage: `Usage: cuelab doctor [--workspace DIR]

Checks what this machine has for CueLab and prints the fix for anything missing: Node's
version, whether Docker answers and which CueLab images it has, free disk space at the
workspace, a Chromium for PDF figures and the end-to-end tests, and which providers' API key
variables are set (never their values). It changes nothing. Exit 1 only when Node is too old.`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { workspace: { type: 'string' } },
      strict: true,
    });
    const workspace = workspaceForProcess(values.workspace).path;
    const nodeOk = nodeCheck(io);
    await dockerChecks(io);
    diskCheck(io, workspace);
    chromiumCheck(io);
    keyChecks(io);
    // Writable where it is, or where it would be made (doctor creates nothing).
    let folder = workspace;
    while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
    try {
      accessSync(folder, constants.W_OK);
      line(
        io,
        'ok',
        'Workspace',
        `${workspace}${folder === workspace ? '' : ' (made on first use)'}`,
      );
    } catch {
      line(
        io,
        'fail',
        'Workspace',
        `${workspace}: ${folder} is not writable`,
        'cuelab --workspace DIR … (or CUELAB_WORKSPACE=DIR) with a folder you can write',
      );
      return exitCodes.failed;
    }
    return nodeOk ? exitCodes.ok : exitCodes.failed;
  },
};
