/**
 * From a host's configuration to a dockerode client. `local` honours DOCKER_HOST like the docker
 * CLI; `tcp://` uses TLS when certificates are given (the daemon's `--tlsverify`); `ssh://` goes
 * through the ssh agent or a key file and runs `docker system dial-stdio` on the host, as the
 * docker CLI does.
 */
import Docker from 'dockerode';
import { readFileSync } from 'node:fs';
import { LOCAL_DOCKER_HOST_ID, type DockerHostConfig } from '../../../../shared/docker-hosts';
import { EngineError } from '../../errors';

/** Per-request timeout of every Docker API call to a remote host (a hung host is a down host). */
export const REMOTE_DOCKER_TIMEOUT_MS = 120_000;

/** The dockerode options for `host`. */
export function dockerOptionsFor(host: DockerHostConfig): Docker.DockerOptions {
  if (host.url === LOCAL_DOCKER_HOST_ID) return {};
  if (host.url.startsWith('unix://')) return { socketPath: host.url.slice('unix://'.length) };
  const url = new URL(host.url);
  const port = url.port ? Number(url.port) : undefined;
  if (url.protocol === 'tcp:') {
    if (!host.tls) return { protocol: 'http', host: url.hostname, port: port ?? 2375 };
    return {
      protocol: 'https',
      host: url.hostname,
      port: port ?? 2376,
      ca: readCertificate(host.id, host.tls.caPath),
      cert: readCertificate(host.id, host.tls.certPath),
      key: readCertificate(host.id, host.tls.keyPath),
    };
  }
  return {
    protocol: 'ssh',
    host: url.hostname,
    port: port ?? 22,
    username: decodeURIComponent(url.username),
    sshOptions: host.sshKeyPath
      ? { privateKey: readCertificate(host.id, host.sshKeyPath) }
      : { agent: process.env.SSH_AUTH_SOCK },
  };
}

/** A client for `host`; remote hosts get a per-call timeout. */
export function dockerClientFor(host: DockerHostConfig): Docker {
  const options = dockerOptionsFor(host);
  if (host.url === LOCAL_DOCKER_HOST_ID) return new Docker();
  return new Docker({ ...options, timeout: REMOTE_DOCKER_TIMEOUT_MS });
}

function readCertificate(hostId: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineError('bad_request', `Docker host "${hostId}": cannot read ${path}: ${reason}`);
  }
}

/**
 * True for errors that mean the host itself is unreachable (not that one call was refused):
 * such a host is marked down and its reps go elsewhere.
 */
export function isHostUnreachable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (
    code &&
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENOTFOUND',
      'ENOENT',
    ].includes(code)
  ) {
    return true;
  }
  const message = error instanceof Error ? error.message : String(error);
  return /socket hang up|connect ECONNREFUSED|Timeout|timed out|no answer within/i.test(message);
}
