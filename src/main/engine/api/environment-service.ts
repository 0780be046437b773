/**
 * Judge-environment status for the Settings screen and the builder's warnings: whether Docker
 * answers (with the exact fix when not), whether the base and PostgreSQL images exist, and
 * bootstraps that report their progress as events. A daemon busy with a study's containers can
 * take seconds to answer a ping: a ping that times out (the socket took the connection) is
 * "slow", not "unavailable", and the last good answer stands for the version and images.
 */
import type Docker from 'dockerode';
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
  /** Docker took the connection but did not answer in time: busy, not gone. */
  dockerSlow?: boolean;
  /** ISO time Docker last answered this engine, when it is slow now. */
  dockerLastAnswered?: string;
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

/** How the service reaches Docker; tests point it at sockets that refuse or never answer. */
export interface EnvironmentServiceOptions {
  /** The Docker client of each probe (default: DOCKER_HOST or the default socket). */
  docker?: () => Docker;
  /** How long a ping may take before Docker counts as slow (default 5 s). */
  probeTimeoutMs?: number;
}

/** What Docker last said when it answered. */
interface LastAnswer {
  at: string;
  version?: string;
  images: { baseImage: ImageStatus; postgresImage: ImageStatus };
}

/** The service for one engine; bootstrap progress is published on `events`. */
export function createEnvironmentService(
  events: EventHub,
  options: EnvironmentServiceOptions = {},
): EnvironmentService {
  const client = options.docker ?? createDockerClient;
  const running = new Map<BootstrapImageKind, Promise<unknown>>();
  let lastAnswer: LastAnswer | null = null;
  const imageStatus = async (
    docker: Docker,
    kind: BootstrapImageKind,
    look: boolean,
  ): Promise<ImageStatus> => {
    const tag = bootstrapImageTag(kind);
    if (!look) return { tag, present: false };
    const image = await findImage(docker, tag).catch(() => undefined);
    return { tag, present: image !== undefined, ...(image ? { sizeBytes: image.Size } : {}) };
  };
  const status = async (): Promise<EnvironmentStatus> => {
    const dockerClient = client();
    const docker = await probeDocker(options.probeTimeoutMs ?? 5000, dockerClient);
    const building = [...running.keys()];
    const slow = !docker.available && /no answer within/.test(docker.problem ?? '');
    if (slow) return slowStatus(docker.problem ?? 'no answer', lastAnswer, building);
    const images = {
      baseImage: await imageStatus(dockerClient, 'base', docker.available),
      postgresImage: await imageStatus(dockerClient, postgresName, docker.available),
    };
    if (docker.available) {
      lastAnswer = {
        at: new Date().toISOString(),
        ...(docker.version ? { version: docker.version } : {}),
        images,
      };
    }
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

/**
 * Docker took the connection but did not answer in time. Under a study's load that is the
 * common case, so it reads "busy", with what Docker said last; the runner's own check is more
 * patient still (environments/docker-health.ts) and pauses a study only when it stays silent.
 */
function slowStatus(
  problem: string,
  last: LastAnswer | null,
  building: BootstrapImageKind[],
): EnvironmentStatus {
  const images = last?.images ?? {
    baseImage: { tag: bootstrapImageTag('base'), present: false },
    postgresImage: { tag: bootstrapImageTag(postgresName), present: false },
  };
  const said = last
    ? `It last answered at ${last.at.slice(11, 19)} UTC; studies keep running in it.`
    : 'It has not answered this engine yet.';
  return {
    dockerAvailable: last !== null,
    dockerSlow: true,
    ...(last ? { dockerLastAnswered: last.at } : {}),
    ...(last?.version ? { dockerVersion: last.version } : {}),
    problem: `Docker is busy: ${problem.replace(/^Docker is not reachable: /, '').replace(/\.$/, '')}. ${said}`,
    ...images,
    bootstrapRunning: building.length > 0,
    building,
  };
}
