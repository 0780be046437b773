/**
 * Docker's health as a condition of the study, not of one rep. A daemon that is slow to answer
 * (under load a ping can take seconds) is asked again with longer deadlines before anything is
 * concluded; a daemon that does not answer at all pauses the studies that need it with a reason
 * the window shows, and they resume when it answers again (runner/docker-pause.ts). Neither
 * ever fails a rep for good.
 */
import type Docker from 'dockerode';
import { newDocker } from './docker-lib';
import { probeDocker } from './docker-status';
import { DockerUnavailableError } from './docker/client';

/** Why Docker cannot serve reps now: not running (refused, no socket), or not answering. */
export type DockerDownKind = 'absent' | 'slow';

/** The answer of a patient probe. */
export type DockerHealth =
  { up: true; version: string } | { up: false; kind: DockerDownKind; problem: string; fix: string };

/** Deadlines of the successive pings: a busy daemon gets about 20 s in all before it counts. */
const patientDeadlinesMs = [3000, 6000, 12_000];

/**
 * Pings Docker; a ping that times out is tried again with a longer deadline (after a short
 * backoff) so transient slowness never counts as an outage. A refused or missing socket is
 * asked once more after the backoff, then reported as absent at once.
 */
export async function checkDockerHealth(
  docker: Docker = newDocker(),
  deadlinesMs: readonly number[] = patientDeadlinesMs,
): Promise<DockerHealth> {
  let last: Extract<DockerHealth, { up: false }> | undefined;
  for (const [index, deadline] of deadlinesMs.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** index));
    const status = await probeDocker(deadline, docker);
    if (status.available) return { up: true, version: status.version ?? 'unknown' };
    const slow = /no answer within/.test(status.problem ?? '');
    last = {
      up: false,
      kind: slow ? 'slow' : 'absent',
      problem: status.problem ?? 'Docker is not reachable.',
      fix: status.fix ?? 'Start Docker.',
    };
    // A refused or missing socket gets one more look (a daemon restarting), not three.
    if (!slow && index >= 1) break;
  }
  return last as Extract<DockerHealth, { up: false }>;
}

/** Reasons a study paused for Docker starts with: the runner resumes exactly these. */
export const dockerPauseReasons = {
  absent: 'Docker is not running',
  slow: 'Docker is not answering',
} as const;

/** True when a stored pause reason is one of Docker's (the study resumes when it is back). */
export function isDockerPauseReason(reason: string | null | undefined): boolean {
  return (
    reason !== null &&
    reason !== undefined &&
    Object.values(dockerPauseReasons).some((prefix) => reason.startsWith(prefix))
  );
}

/**
 * Docker cannot serve reps now. Never the rep's fault: the runner pauses the study with
 * `pauseReason` and gives the job back unspent.
 */
export class DockerDownError extends DockerUnavailableError {
  readonly pauseReason: string;

  constructor(health: Extract<DockerHealth, { up: false }>, needs = 'This needs Docker') {
    const head = dockerPauseReasons[health.kind];
    super(`${needs}. ${head}: ${health.problem}`, health.fix);
    this.name = 'DockerDownError';
    this.pauseReason =
      `${head} (${health.problem.replace(/\.$/, '')}). ` +
      'The study resumes by itself when Docker answers again.';
  }
}

/** The DockerDownError in `error` or its `cause` chain, if any. */
export function findDockerDown(error: unknown): DockerDownError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof DockerDownError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
