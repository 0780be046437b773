/**
 * An sshd on 127.0.0.1 started by a test, so `ssh://` Docker hosts are reached the way a real
 * remote one is: key login, then `docker system dial-stdio` on the "remote" side. The key's
 * sessions see DOCKER_HOST=`dockerHost`, so they reach the test's second engine. Needs root and
 * /usr/sbin/sshd (.ci/run installs openssh-server); when CUELAB_REQUIRE_DOCKER=1 a missing sshd
 * is a failure, not a skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dockerRequired } from './docker';
import { freePort } from './free-port';

const SSHD = '/usr/sbin/sshd';

/** A running sshd. */
export interface TestSshd {
  /** `ssh://root@127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The client's private key file. */
  keyPath: string;
  /** A known_hosts file listing this server's host key (as `[127.0.0.1]:PORT`). */
  knownHostsPath: string;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/** Why a test sshd cannot run here, or null when it can. */
export function sshdProblem(): string | null {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'not root';
  if (spawnSync('test', ['-x', SSHD]).status !== 0)
    return `no ${SSHD} (apt-get install openssh-server)`;
  if (spawnSync('sh', ['-c', 'command -v docker']).status !== 0) return 'no docker CLI on PATH';
  return null;
}

function keygen(path: string): void {
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path]);
  if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr.toString()}`);
}

/** Starts sshd; null when it cannot and CI does not demand it. */
export async function startSshd(dockerHost: string): Promise<TestSshd | null> {
  const problem = sshdProblem();
  if (problem) {
    if (dockerRequired)
      throw new Error(`CUELAB_REQUIRE_DOCKER=1 but sshd cannot start: ${problem}`);
    return null;
  }
  const root = mkdtempSync(join(tmpdir(), 'cl-sshd-'));
  chmodSync(root, 0o700);
  mkdirSync('/run/sshd', { recursive: true });
  const port = await freePort();
  const hostKey = join(root, 'host_key');
  const keyPath = join(root, 'client_key');
  keygen(hostKey);
  keygen(keyPath);
  const clientKey = readFileSync(`${keyPath}.pub`, 'utf8').trim();
  writeFileSync(
    join(root, 'authorized_keys'),
    `environment="DOCKER_HOST=${dockerHost}" ${clientKey}\n`,
    { mode: 0o600 },
  );
  const config = join(root, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${join(root, 'authorized_keys')}`,
      `PidFile ${join(root, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitUserEnvironment yes',
      'StrictModes no',
      'UsePAM no',
      'AllowAgentForwarding no',
      '',
    ].join('\n'),
  );
  const hostPublic = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(/\s+/);
  const knownHostsPath = join(root, 'known_hosts');
  writeFileSync(knownHostsPath, `[127.0.0.1]:${port} ${hostPublic[0]} ${hostPublic[1]}\n`);
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (child.exitCode !== null) break;
    if (await listening(port)) {
      return { url: `ssh://root@127.0.0.1:${port}`, port, keyPath, knownHostsPath, dispose };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await dispose();
  throw new Error(`the test sshd did not start:\n${log.slice(-1500)}`);
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
