/**
 * An item's own Dockerfile, built under the suite rules of build-policy.ts: every image it
 * reads checked first, its context bounded, its RUN steps capped as the judge's container.
 * The tag hashes the Dockerfile, the context and the network it built with, so an unchanged
 * item reuses its build and a changed context file never does.
 */
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import { buildContextProblem } from '../../../../shared/build-context';
import { EngineError } from '../../errors';
import { contentHash } from './archive';
import { buildCaps, checkDockerfileImages } from './build-policy';
import { buildImageRepository, dockerLabels } from './client';
import { buildImageFromDockerfile, findImage } from './images';
import { dockerDefaults, type DockerItemSettings } from './item-settings';

/** Builds (or finds) the image of `dockerfile`; resolves to its id. */
export async function buildSuiteImage(
  docker: Docker,
  dockerfile: string,
  spec: EnvironmentSpec,
  settings: DockerItemSettings,
  options: { signal: AbortSignal | undefined; onProgress: ((line: string) => void) | undefined },
): Promise<string> {
  const context = spec.buildContext ?? {};
  // The schema checked this when the suite was read; an item made in code is checked here.
  const problem = buildContextProblem(context);
  if (problem) throw new EngineError('bad_request', `environment.buildContext ${problem}`);
  await checkDockerfileImages(docker, dockerfile);
  const caps = buildCaps(settings, dockerDefaults.setupTimeoutMs);
  const tag = `${buildImageRepository}:${contentHash({ dockerfile, context, network: caps.networkMode })}`;
  const built = await findImage(docker, tag);
  if (built) return built.Id;
  try {
    return await buildImageFromDockerfile(docker, {
      dockerfile,
      tag,
      context: Object.fromEntries(
        Object.entries(context).map(([path, base64]) => [path, Buffer.from(base64, 'base64')]),
      ),
      labels: { [dockerLabels.managed]: 'true', [dockerLabels.kind]: 'build' },
      caps,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onOutput: options.onProgress } : {}),
    });
  } catch (error) {
    options.signal?.throwIfAborted();
    if (caps.networkMode !== 'none' || !(error instanceof Error)) throw error;
    // A RUN step that fails for want of a network reads like any failure: say why it may have.
    throw new EngineError(
      'bad_request',
      `${error.message}\nSuite builds have no network: RUN steps cannot download anything. ` +
        'Put what the build needs in environment.buildContext and COPY it, or, if you trust ' +
        'this suite, allow the network in your own environment (CUELAB_CONTAINER_ALLOW_NETWORK=1) ' +
        'for items with network: true.',
    );
  }
}
