import { probeDocker } from '../../src/main/engine/environments/docker-status';
import type { DockerStatus } from '../../src/shared/lab-api';

/** True when CI demands Docker: tests that need it must then fail, never skip. */
export const dockerRequired = process.env.CUELAB_REQUIRE_DOCKER === '1';

/**
 * Probes Docker for a test. Unavailable + required: throws with the fix. Unavailable and not
 * required: returns null so the caller can skip with the reason.
 */
export async function dockerForTest(): Promise<DockerStatus | null> {
  const status = await probeDocker(5000);
  if (status.available) return status;
  if (dockerRequired) {
    throw new Error(
      `CUELAB_REQUIRE_DOCKER=1 but ${status.problem ?? 'Docker is unavailable'} Fix: ${status.fix ?? ''}`,
    );
  }
  return null;
}
