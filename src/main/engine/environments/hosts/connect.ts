/**
 * From a host's configuration to a dockerode client. `local` honours DOCKER_HOST like the docker
 * CLI; `tcp://` uses TLS when certificates are given (the daemon's `--tlsverify`); `ssh://` goes
 * through the ssh agent or a key file and runs `docker system dial-stdio` on the host, as the
 * docker CLI does.
 */
import type Docker from 'dockerode';
import { newDocker } from '../docker-lib';
import { readFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import { LOCAL_DOCKER_HOST_ID, type DockerHostConfig } from '../../../../shared/docker-hosts';
import { EngineError } from '../../errors';
import { knownHostsVerifier } from './known-hosts';
import { sshDockerAgent } from './ssh-agent';

/** Why the last ssh connection to each host was refused at the host-key check, by host id. */
const hostKeyRefusals = new Map<string, string>();
/** What `docker system dial-stdio` last said on each ssh host's stderr, and when. */
const dialErrors = new Map<string, { text: string; at: number }>();
/** How long a dial-stdio complaint explains a dropped connection. */
const DIAL_ERROR_FRESH_MS = 30_000;

/** Per-request timeout of every Docker API call to a remote host (a hung host is a down host). */
export const REMOTE_DOCKER_TIMEOUT_MS = 120_000;

/** The dockerode options for `host`. */
export function dockerOptionsFor(host: DockerHostConfig): Docker.DockerOptions & { agent?: Agent } {
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
  const sshPort = port ?? 22;
  return {
    protocol: 'http',
    host: url.hostname,
    port: sshPort,
    agent: sshDockerAgent(
      {
        host: url.hostname,
        port: sshPort,
        username: decodeURIComponent(url.username),
        ...(host.sshKeyPath
          ? { privateKey: readCertificate(host.id, host.sshKeyPath) }
          : { agent: process.env.SSH_AUTH_SOCK }),
        // The host runs tool commands only: it never gets the workstation's ssh agent.
        agentForward: false,
        hostVerifier: knownHostsVerifier(url.hostname, sshPort, (reason) =>
          hostKeyRefusals.set(host.id, reason),
        ),
      },
      (text) => dialErrors.set(host.id, { text, at: Date.now() }),
    ),
  };
}

/** A client for `host`; remote hosts get a per-call timeout. */
export function dockerClientFor(host: DockerHostConfig): Docker {
  const options = dockerOptionsFor(host);
  if (host.url === LOCAL_DOCKER_HOST_ID) return newDocker();
  const docker = newDocker({ ...options, timeout: REMOTE_DOCKER_TIMEOUT_MS });
  if (options.agent) agents.set(docker, options.agent);
  return docker;
}

/** The ssh agents behind clients, so closing a pool ends their connections. */
const agents = new WeakMap<Docker, Agent>();

/** Ends the connections `docker` keeps open (ssh hosts); other clients hold none. */
export function releaseDockerClient(docker: Docker): void {
  agents.get(docker)?.destroy();
  agents.delete(docker);
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
 * The message to show for `error` from `hostId`: ssh's bare "verification failed" becomes the
 * host-key reason and what to do about it.
 */
export function hostErrorMessage(hostId: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const dial = dialErrors.get(hostId);
  if (
    dial &&
    Date.now() - dial.at < DIAL_ERROR_FRESH_MS &&
    /socket hang up|ECONNRESET/i.test(message)
  )
    return `${message.replace(/\.$/, '')} (on the host, \`docker system dial-stdio\` said: ${dial.text})`;
  if (!hostKeyRefusals.has(hostId)) return message;
  const refusal = hostKeyRefusals.get(hostId);
  if (refusal && /verification failed/i.test(message)) return `Docker host "${hostId}": ${refusal}`;
  return message;
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
  // A host ssh will not trust or log in to, or whose engine is gone (dial-stdio fails), cannot
  // run anything either.
  return /socket hang up|connect ECONNREFUSED|Timeout|timed out|no answer within|verification failed|authentication methods failed|dial-stdio/i.test(
    message,
  );
}
