/**
 * The Docker side shared by generating and verifying suites: a check that Docker and the base
 * image are there (with the fix when not), a small concurrency pool, and how a shell call's
 * result reads in a trajectory.
 */
import type Docker from 'dockerode';
import type { SuiteItem } from '../../../../shared/suite-format';
import {
  probeDocker,
  specNeedsDocker,
  findBaseImage,
  DockerUnavailableError,
} from '../../environments';
import type { ExecResult, ToolLimits } from '../../contract';
import { EngineError } from '../../errors';
import { postgresOf } from '../../../../shared/substrates/postgres';

/** Limits on each agent step and on the verifier. */
export const agentStepLimits: ToolLimits = {
  commandTimeoutMs: 120_000,
  maxOutputBytes: 64 * 1024,
  maxRows: 200,
};

/**
 * Throws, with the fix, unless Docker answers and (when an item starts from it) the base image
 * is built. `what` names the work for the message ("Verifying a suite").
 */
export async function requireItemContainers(
  docker: Docker,
  items: readonly Pick<SuiteItem, 'environment'>[],
  what: string,
): Promise<void> {
  const status = await probeDocker(5000, docker);
  if (!status.available) {
    throw new DockerUnavailableError(
      `${what} rebuilds items in Docker containers, but ${status.problem ?? 'Docker is not reachable.'}`,
      `${status.fix ?? 'Start Docker.'}\nThen, once: run cuelab env bootstrap`,
    );
  }
  // Web-only items need no container; Postgres items start from their own image (built on need).
  const needsBase = items.some(
    ({ environment }) =>
      specNeedsDocker(environment) &&
      !environment.image &&
      !environment.dockerfile &&
      !postgresOf(environment),
  );
  if (needsBase && !(await findBaseImage(docker))) {
    throw new EngineError(
      'internal',
      `${what} starts items from the CueLab base image, which is not built on this machine. ` +
        'Fix: run cuelab env bootstrap (once, about a minute).',
    );
  }
}

/** Runs `work` over `inputs`, at most `concurrency` at a time; results in input order. */
export async function mapPool<T, R>(
  inputs: readonly T[],
  concurrency: number,
  work: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(inputs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next;
      next += 1;
      results[index] = await work(inputs[index] as T, index);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker),
  );
  return results;
}

/** A shell call's result as a trajectory's tool message shows it (the judge's shell layout). */
export function formatShellResult(result: ExecResult): string {
  const parts = [
    `exit code: ${result.exitCode ?? 'killed'}${result.timedOut ? ' (timed out)' : ''}`,
  ];
  if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
  if (result.truncated) parts.push('[output truncated]');
  return parts.join('\n');
}
