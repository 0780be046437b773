/**
 * Judge-environment status for the Settings screen and the builder's warnings: whether Docker
 * answers (with the exact fix when not), whether the base and PostgreSQL images exist, and
 * bootstraps that report their progress as events.
 */
import {
  probeDocker,
  bootstrapImageTag,
  ensureBootstrapImage,
  type BootstrapImageKind,
  createDockerClient,
  findImage,
} from '../environments';
import type { EventHub } from '../events';
import { postgresName } from '../../../shared/substrates/postgres';

/** One bootstrapped image as the status reports it. */
export interface ImageStatus {
  tag: string;
  present: boolean;
  sizeBytes?: number;
}

/** The status the LabApi reports. */
export interface EnvironmentStatus {
  dockerAvailable: boolean;
  dockerVersion?: string;
  problem?: string;
  fix?: string;
  baseImage: ImageStatus;
  postgresImage: ImageStatus;
  bootstrapRunning: boolean;
  building: BootstrapImageKind[];
}

/** Status and bootstrap of the Docker environments. */
export interface EnvironmentService {
  status(): Promise<EnvironmentStatus>;
  /** Starts building `image` (default the base image) unless it is being built already. */
  startBootstrap(request?: { image?: BootstrapImageKind }): Promise<EnvironmentStatus>;
}

const imageNames: Record<BootstrapImageKind, string> = {
  base: 'base image',
  postgres: 'PostgreSQL image',
};

/** The service for one engine; bootstrap progress is published on `events`. */
export function createEnvironmentService(events: EventHub): EnvironmentService {
  const running = new Map<BootstrapImageKind, Promise<unknown>>();
  const imageStatus = async (kind: BootstrapImageKind, look: boolean): Promise<ImageStatus> => {
    const tag = bootstrapImageTag(kind);
    if (!look) return { tag, present: false };
    const image = await findImage(createDockerClient(), tag).catch(() => undefined);
    return { tag, present: image !== undefined, ...(image ? { sizeBytes: image.Size } : {}) };
  };
  const status = async (): Promise<EnvironmentStatus> => {
    const docker = await probeDocker();
    const building = [...running.keys()];
    const images = {
      baseImage: await imageStatus('base', docker.available),
      postgresImage: await imageStatus(postgresName, docker.available),
    };
    if (!docker.available) {
      return {
        dockerAvailable: false,
        ...(docker.problem ? { problem: docker.problem } : {}),
        ...(docker.fix ? { fix: docker.fix } : {}),
        ...images,
        bootstrapRunning: building.length > 0,
        building,
      };
    }
    return {
      dockerAvailable: true,
      ...(docker.version ? { dockerVersion: docker.version } : {}),
      ...images,
      bootstrapRunning: building.length > 0,
      building,
    };
  };
  const publish = (
    image: BootstrapImageKind,
    data: { message: string; done: boolean; error?: string },
  ) => events.publish({ stream: 'env.bootstrap', data: { ...data, image } });
  return {
    status,
    async startBootstrap(request = {}) {
      const kind = request.image ?? 'base';
      if (!running.has(kind)) {
        const name = imageNames[kind];
        const build = ensureBootstrapImage(kind, {
          onProgress: (progress) =>
            publish(kind, {
              message: `${name}: ${progress.message} (${Math.round(progress.elapsedSeconds)} s)`,
              done: false,
            }),
        })
          .then((image) =>
            publish(kind, {
              message: image.built ? `Built ${image.tag}.` : `${image.tag} was already built.`,
              done: true,
            }),
          )
          .catch((error: unknown) =>
            publish(kind, {
              message: `Building the ${name} failed.`,
              done: true,
              error: error instanceof Error ? error.message : String(error),
            }),
          )
          .finally(() => {
            running.delete(kind);
          });
        running.set(kind, build);
      }
      return status();
    },
  };
}
