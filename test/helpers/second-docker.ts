/**
 * A second Docker engine on this machine, started by a test: its own data root, exec root, pid
 * file and unix socket, listening on tcp 127.0.0.1 — reached through the same code path as a
 * remote host. Needs root and dockerd; when CUELAB_REQUIRE_DOCKER=1 a failure to start throws.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Docker from 'dockerode';
import { baseImageTag } from '../../src/main/engine/environments/docker/bootstrap';
import { dockerForTest, dockerRequired } from './docker';
import { freePort } from './free-port';

/** A running second engine. */
export interface SecondDocker {
  /** `tcp://127.0.0.1:PORT`. */
  url: string;
  /** Client certificates, when started with TLS (`--tlsverify`). */
  tls?: { caPath: string; certPath: string; keyPath: string };
  docker: Docker;
  root: string;
  /** SIGKILLs the daemon (its containers die with it). */
  kill(): Promise<void>;
  /** Kills it (if running) and starts it again on the same port and data root. */
  restart(): Promise<void>;
  /** Stops it and removes its folders. */
  dispose(): Promise<void>;
}

/** Why a second engine cannot run here, or null when it can. */
export function secondDockerProblem(): string | null {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'not root';
  if (spawnSync('sh', ['-c', 'command -v dockerd']).status !== 0) return 'no dockerd on PATH';
  return null;
}

/**
 * A second engine for host-pool tests, which copy the base image from this machine's engine:
 * null when Docker or the base image is missing (a failure when CUELAB_REQUIRE_DOCKER=1).
 */
export async function startSecondDockerBesideBase(): Promise<SecondDocker | null> {
  if (!(await dockerForTest())) return null;
  const hasBase = await new Docker()
    .getImage(baseImageTag())
    .inspect()
    .then(() => true)
    .catch(() => false);
  if (!hasBase) {
    if (dockerRequired) throw new Error('the base image is missing: run cuelab env bootstrap');
    return null;
  }
  return startSecondDocker();
}

/** Starts a second engine; null (with the reason logged) when it cannot and CI does not demand it. */
export async function startSecondDocker(
  options: { tls?: boolean } = {},
): Promise<SecondDocker | null> {
  const problem = secondDockerProblem();
  if (problem) {
    if (dockerRequired)
      throw new Error(`CUELAB_REQUIRE_DOCKER=1 but a second dockerd cannot start: ${problem}`);
    return null;
  }
  // Short paths: a unix socket path must stay under ~100 characters.
  const root = mkdtempSync(join(tmpdir(), 'cl-d2-'));
  const port = await freePort();
  const url = `tcp://127.0.0.1:${port}`;
  const tls = options.tls ? makeCertificates(root) : undefined;
  // Its own bridge: with --bridge=none dockerd deletes the host's docker0 (the first engine's).
  const bridge = `cl${basename(root)
    .slice(-8)
    .replace(/[^A-Za-z0-9]/g, '')}`;
  const made = spawnSync('sh', [
    '-c',
    `ip link add ${bridge} type bridge && ip link set ${bridge} up`,
  ]);
  if (made.status !== 0)
    throw new Error(`cannot make the bridge ${bridge}: ${made.stderr.toString()}`);
  const args = [
    '--host',
    url,
    '--host',
    `unix://${root}/docker.sock`,
    '--data-root',
    join(root, 'data'),
    '--exec-root',
    join(root, 'exec'),
    '--pidfile',
    join(root, 'docker.pid'),
    '--bridge',
    bridge,
    '--iptables=false',
    '--ip-masq=false',
    ...(tls
      ? [
          '--tlsverify',
          `--tlscacert=${tls.caPath}`,
          `--tlscert=${join(root, 'tls', 'server-cert.pem')}`,
          `--tlskey=${join(root, 'tls', 'server-key.pem')}`,
        ]
      : []),
  ];
  const docker = tls
    ? new Docker({
        protocol: 'https',
        host: '127.0.0.1',
        port,
        ca: readFileSync(tls.caPath),
        cert: readFileSync(tls.certPath),
        key: readFileSync(tls.keyPath),
      })
    : new Docker({ protocol: 'http', host: '127.0.0.1', port });
  let daemon: Awaited<ReturnType<typeof launch>>;
  try {
    daemon = await launch(args, docker, root);
  } catch (error) {
    unmountUnder(root);
    rmSync(root, { recursive: true, force: true });
    spawnSync('ip', ['link', 'delete', bridge]);
    throw error;
  }
  const stopDaemon = async (signal: 'SIGKILL' | 'SIGTERM') => {
    if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
    daemon.child.kill(signal);
    const timer = setTimeout(() => daemon.child.kill('SIGKILL'), 15_000);
    await daemon.exited;
    clearTimeout(timer);
    // Its containerd shims outlive a killed dockerd: end them so nothing keeps running.
    spawnSync('sh', ['-c', `pkill -9 -f 'containerd.*${root}' || true`]);
  };
  return {
    url,
    docker,
    root,
    ...(tls ? { tls } : {}),
    kill: () => stopDaemon('SIGKILL'),
    async restart() {
      await stopDaemon('SIGKILL');
      unmountUnder(`${root}/exec`);
      rmSync(join(root, 'exec', 'containerd'), { recursive: true, force: true });
      // On a loaded machine containerd can miss dockerd's start deadline once.
      daemon = await launch(args, docker, root).catch(() => launch(args, docker, root));
    },
    async dispose() {
      await stopDaemon('SIGTERM');
      unmountUnder(root);
      rmSync(root, { recursive: true, force: true });
      spawnSync('ip', ['link', 'delete', bridge]);
    },
  };
}

/** Spawns dockerd with `args` and waits until `docker` answers a ping. */
async function launch(
  args: string[],
  docker: Docker,
  root: string,
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = spawn('dockerd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; attempt < 100 && child.exitCode === null; attempt += 1) {
    try {
      await docker.ping();
      return { child, exited };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  child.kill('SIGKILL');
  await exited;
  spawnSync('sh', ['-c', `pkill -9 -f 'containerd.*${root}' || true`]);
  unmountUnder(`${root}/exec`);
  throw new Error(`the second dockerd did not start:\n${log.slice(-1500)}`);
}

/** Lazily unmounts whatever the daemon left mounted below `root` (netns files, overlays). */
function unmountUnder(root: string): void {
  const mounts = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((path) => path.startsWith(`${root}/`))
    .sort((a, b) => b.length - a.length);
  for (const path of mounts) spawnSync('umount', ['-l', path]);
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
function makeCertificates(root: string): { caPath: string; certPath: string; keyPath: string } {
  const dir = join(root, 'tls');
  mkdirSync(dir);
  const run = (args: string[]) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  };
  const days = ['-days', '2'];
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=cuelab-test-ca',
    ...days,
  ]);
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, subject] of [
    ['server', '/CN=127.0.0.1'],
    ['client', '/CN=cuelab-client'],
  ] as const) {
    run([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}-key.pem`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    ]);
    run([
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-out',
      `${name}-cert.pem`,
      '-extfile',
      `${name}.ext`,
      ...days,
    ]);
  }
  return {
    caPath: join(dir, 'ca.pem'),
    certPath: join(dir, 'client-cert.pem'),
    keyPath: join(dir, 'client-key.pem'),
  };
}
