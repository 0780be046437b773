/**
 * Whether a Docker engine answers, and the exact fix when it does not. The judge's commands
 * run only inside containers (ARCHITECTURE.md, "Fixed points"), so this is shown up front.
 */
import { newDocker } from './docker-lib';
import type { DockerStatus } from '../../../shared/lab-api';

const linuxFix = [
  'sudo apt-get install -y docker.io',
  'sudo systemctl start docker   # without systemd: sudo dockerd >/tmp/dockerd.log 2>&1 &',
].join('\n');
const desktopFix = 'Install Docker Desktop and start it; CueLab finds it on its default socket.';

/** The commands that install and start Docker on this platform. */
export function dockerFix(platform: NodeJS.Platform = process.platform): string {
  return platform === 'linux' ? linuxFix : desktopFix;
}

/** Pings the Docker engine (honouring DOCKER_HOST) within `timeoutMs`. */
export async function probeDocker(timeoutMs = 3000, docker = newDocker()): Promise<DockerStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const info = (await Promise.race([docker.version(), timeout])) as { Version?: string };
    return { available: true, version: info.Version ?? 'unknown' };
  } catch (error) {
    return {
      available: false,
      problem: `Docker is not reachable: ${describeDockerError(error)}.`,
      fix: dockerFix(),
    };
  } finally {
    clearTimeout(timer);
  }
}

function describeDockerError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no Docker socket (is Docker installed?)';
  if (code === 'ECONNREFUSED') return 'the Docker socket refuses connections (is dockerd running?)';
  if (code === 'EACCES')
    return 'permission denied on the Docker socket (add yourself to the docker group)';
  return error instanceof Error ? error.message : String(error);
}
