/**
 * Judge-environment status for the Settings screen and the builder's warnings: whether Docker
 * answers (with the exact fix when not), whether the base image exists, and a bootstrap that
 * reports its progress as events.
 */
import {
  probeDocker,
  baseImageTag,
  ensureBaseImage,
  findBaseImage,
  createDockerClient,
} from '../environments';
import type { EventHub } from '../events';

/** The status the LabApi reports. */
export interface EnvironmentStatus {
  dockerAvailable: boolean;
  dockerVersion?: string;
  problem?: string;
  fix?: string;
  baseImage: { tag: string; present: boolean; sizeBytes?: number };
  bootstrapRunning: boolean;
}

/** Status and bootstrap of the Docker environments. */
export interface EnvironmentService {
  status(): Promise<EnvironmentStatus>;
  startBootstrap(): Promise<EnvironmentStatus>;
}

/** The service for one engine; bootstrap progress is published on `events`. */
export function createEnvironmentService(events: EventHub): EnvironmentService {
  let running: Promise<unknown> | null = null;
  const status = async (): Promise<EnvironmentStatus> => {
    const docker = await probeDocker();
    const tag = baseImageTag();
    if (!docker.available) {
      return {
        dockerAvailable: false,
        ...(docker.problem ? { problem: docker.problem } : {}),
        ...(docker.fix ? { fix: docker.fix } : {}),
        baseImage: { tag, present: false },
        bootstrapRunning: running !== null,
      };
    }
    const image = await findBaseImage(createDockerClient()).catch(() => undefined);
    return {
      dockerAvailable: true,
      ...(docker.version ? { dockerVersion: docker.version } : {}),
      baseImage: { tag, present: image !== undefined, ...(image ? { sizeBytes: image.Size } : {}) },
      bootstrapRunning: running !== null,
    };
  };
  return {
    status,
    async startBootstrap() {
      if (!running) {
        running = ensureBaseImage({
          onProgress: (progress) =>
            events.publish({
              stream: 'env.bootstrap',
              data: {
                message: `${progress.message} (${Math.round(progress.elapsedSeconds)} s)`,
                done: false,
              },
            }),
        })
          .then((image) =>
            events.publish({
              stream: 'env.bootstrap',
              data: {
                message: image.built ? `Built ${image.tag}.` : `${image.tag} was already built.`,
                done: true,
              },
            }),
          )
          .catch((error: unknown) =>
            events.publish({
              stream: 'env.bootstrap',
              data: {
                message: 'Bootstrap failed.',
                done: true,
                error: error instanceof Error ? error.message : String(error),
              },
            }),
          )
          .finally(() => {
            running = null;
          });
      }
      return status();
    },
  };
}
