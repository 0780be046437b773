/**
 * A pool of Docker engines that run judge containers. The durable job queue stays the only
 * scheduler: the pool only decides *where* a claimed rep's container runs — the up host with the
 * most room — and waits when every host is full. A host that stops answering is marked down (its
 * in-flight reps fail as infrastructure failures and the runner queues them again, so they run
 * elsewhere) and is probed again until it answers. Model calls never leave the engine: hosts only
 * run the judge's tool commands.
 */
import type Docker from 'dockerode';
import {
  LOCAL_DOCKER_HOST_ID,
  type DockerHostConfig,
  type DockerHostStatus,
} from '../../../../shared/docker-hosts';
import type { Trajectory } from '../../../../shared/trajectory';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import { EngineError } from '../../errors';
import { probeDocker } from '../docker-status';
import { baseImageRepository, dockerLabels } from '../docker/client';
import { baseImageTag } from '../docker/bootstrap';
import { RepPrewarmer } from '../docker/prewarm';
import {
  provisionEnvironment,
  specNeedsDocker,
  type ProvisionedJudgeEnvironment,
  type ProvisionOptions,
} from '../provision';
import {
  dockerClientFor,
  hostErrorMessage,
  isHostUnreachable,
  releaseDockerClient,
} from './connect';
import { describeShipProgress, shipImage } from './ship-image';

/** Options of a pool. */
export interface HostPoolOptions {
  /** How often hosts are probed (down hosts come back when they answer). */
  probeIntervalMs?: number;
  /** Lines worth showing: image shipping, hosts going down or up. */
  onProgress?: (line: string) => void;
  /** Client for a host (tests inject; defaults to `dockerClientFor`). */
  clientFor?: (host: DockerHostConfig) => Docker;
  /**
   * Make each rep's successor container while the rep runs (docker/prewarm.ts). The runner
   * turns it on, and drains what is left when it stops; off, a rep makes its own container.
   */
  prewarm?: boolean;
  /**
   * An item's snapshot folder (files and SQLite only) stays this long after its last rep, for
   * its next rep (the runner: cued reps follow the uncued ones); the runner removes what is
   * left when it stops (`removeKeptSnapshots`).
   */
  keepSnapshotsMs?: number;
}

interface HostState {
  config: DockerHostConfig;
  docker: Docker;
  state: 'up' | 'down' | 'unknown';
  problem?: string;
  dockerVersion?: string;
  /** Slots taken: reps being placed, prepared or running. */
  inFlight: number;
  /** Environments handed out and not yet disposed (reps in their judge loop). */
  active: number;
  repsDone: number;
  lastProbeAt?: string;
  /** Images known to be on the host (shipped from another host if it lacked them), by tag. */
  images: Map<string, Promise<void>>;
}

/** The Docker engines of a workspace, with placement, health and image shipping. */
export class DockerHostPool {
  private hosts: HostState[] = [];
  private readonly waiters = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private readonly probeIntervalMs: number;
  private readonly clientFor: (host: DockerHostConfig) => Docker;
  /**
   * Rep containers made ahead on these hosts, about one per rep in flight. They do not count
   * against a host's limit: they only sleep until their rep comes.
   */
  readonly warm = new RepPrewarmer({
    limit: () => this.hosts.reduce((total, host) => total + host.inFlight, 0),
  });

  constructor(
    configs: readonly DockerHostConfig[],
    private readonly options: HostPoolOptions = {},
  ) {
    this.clientFor = options.clientFor ?? dockerClientFor;
    this.probeIntervalMs = options.probeIntervalMs ?? 5000;
    this.reconfigure(configs);
  }

  /**
   * Applies a new host list: new hosts join, changed limits apply to the next placement, and a
   * removed or disabled host gets no new reps (its reps in flight finish where they are).
   */
  reconfigure(configs: readonly DockerHostConfig[]): void {
    const enabled = configs.filter((config) => config.enabled);
    if (enabled.length === 0) throw new EngineError('bad_request', 'no Docker host is enabled');
    this.hosts = enabled.map((config) => {
      const existing = this.hosts.find(
        (host) => host.config.id === config.id && host.config.url === config.url,
      );
      if (existing) {
        existing.config = config;
        return existing;
      }
      return {
        config,
        docker: this.clientFor(config),
        state: 'unknown',
        inFlight: 0,
        active: 0,
        repsDone: 0,
        images: new Map(),
      };
    });
    this.wake();
  }

  /** True when only the workstation's own engine is enabled (no placement to make). */
  get localOnly(): boolean {
    return this.hosts.length === 1 && this.hosts[0]?.config.id === LOCAL_DOCKER_HOST_ID;
  }

  /** Starts probing every host in the background (the timer never keeps the process alive). */
  start(): this {
    if (!this.timer) {
      void this.probeAll();
      this.timer = setInterval(() => void this.probeAll(), this.probeIntervalMs);
      this.timer.unref();
    }
    return this;
  }

  /** Stops probing and wakes every waiter (they fail with "pool closed"). */
  close(): void {
    const clients = this.hosts.map((host) => host.docker);
    const release = () => clients.forEach(releaseDockerClient);
    // Containers still waiting (a pool closed without its runner's drain) go before the clients.
    if (this.warm.counts().waiting > 0) void this.warm.drain().finally(release);
    else release();
    clearInterval(this.timer);
    this.timer = undefined;
    this.closed = true;
    this.wake();
  }

  private closed = false;

  /** Probes every host once. */
  async probeAll(): Promise<void> {
    await Promise.all(this.hosts.map((host) => this.probe(host)));
  }

  private async probe(host: HostState): Promise<void> {
    const status = await probeDocker(3000, host.docker);
    host.lastProbeAt = new Date().toISOString();
    if (status.available) {
      if (host.state !== 'up' && host.state !== 'unknown')
        this.say(`Docker host ${host.config.id} is back up`);
      host.state = 'up';
      host.dockerVersion = status.version;
      delete host.problem;
      this.wake();
    } else {
      this.markDown(host, hostErrorMessage(host.config.id, status.problem ?? 'it does not answer'));
    }
  }

  private markDown(host: HostState, problem: string): void {
    if (host.state !== 'down') {
      this.say(`Docker host ${host.config.id} is down (${problem}); its reps go to other hosts`);
    }
    host.state = 'down';
    host.problem = problem;
    this.warm.forgetHost(host.config.id);
    host.images.clear(); // images are checked again when it comes back
  }

  /**
   * Provisions the environment of one rep. Items that need no container (files and SQLite
   * only) use the snapshot backend on the workstation. Others wait for a host with room; a host
   * that turns out to be unreachable while the container is made is marked down and the next
   * host is tried, so a dead host never costs a rep.
   */
  async provision(
    spec: EnvironmentSpec,
    item: { id: string; trajectory?: Trajectory },
    signal: AbortSignal,
    extra: Pick<ProvisionOptions, 'owner' | 'webBackend' | 'onImageBuilt'> = {},
  ): Promise<ProvisionedJudgeEnvironment & { hostId?: string }> {
    if (!specNeedsDocker(spec)) {
      return provisionEnvironment(spec, item, {
        signal,
        ...extra,
        ...this.progress(),
        ...(this.options.keepSnapshotsMs ? { keepSnapshotMs: this.options.keepSnapshotsMs } : {}),
      });
    }
    for (;;) {
      const host = await this.acquire(signal);
      try {
        // One engine: exactly the single-workstation path (its limit still applies).
        if (this.localOnly) {
          const environment = await provisionEnvironment(spec, item, {
            signal,
            ...extra,
            ...this.progress(),
            ...this.prewarmOn(host),
          });
          return this.tracked(host, environment);
        }
        // The item's own image, or the base image its snapshot (or Dockerfile) starts from.
        await this.ensureImage(host, spec.image ?? baseImageTag(), signal);
        const environment = await provisionEnvironment(spec, item, {
          signal,
          docker: host.docker,
          backend: 'docker',
          ...extra,
          ...this.progress(),
          ...this.prewarmOn(host),
        });
        return this.tracked(host, environment);
      } catch (error) {
        this.release(host, false);
        if (signal.aborted || this.localOnly || !isHostUnreachable(error)) throw error;
        this.markDown(host, hostErrorMessage(host.config.id, error));
      }
    }
  }

  private prewarmOn(host: HostState): Pick<ProvisionOptions, 'prewarm'> {
    return this.options.prewarm ? { prewarm: { warm: this.warm, host: host.config.id } } : {};
  }

  private progress(): { onProgress?: (line: string) => void } {
    return this.options.onProgress ? { onProgress: this.options.onProgress } : {};
  }

  /** Reps in flight and finished per host id, without asking any host. */
  counts(): Record<string, { inFlight: number; active: number; repsDone: number }> {
    return Object.fromEntries(
      this.hosts.map((host) => [
        host.config.id,
        { inFlight: host.inFlight, active: host.active, repsDone: host.repsDone },
      ]),
    );
  }

  /** The status of every enabled host, with image and container counts from a fresh look. */
  async status(): Promise<DockerHostStatus[]> {
    await this.probeAll();
    return Promise.all(this.hosts.map((host) => this.describe(host)));
  }

  private async describe(host: HostState): Promise<DockerHostStatus> {
    const base: DockerHostStatus = {
      id: host.config.id,
      url: host.config.url,
      maxContainers: host.config.maxContainers,
      enabled: host.config.enabled,
      state: host.state,
      inFlight: host.inFlight,
      repsDone: host.repsDone,
      ...(host.dockerVersion ? { dockerVersion: host.dockerVersion } : {}),
      ...(host.problem ? { problem: host.problem } : {}),
      ...(host.lastProbeAt ? { lastProbeAt: host.lastProbeAt } : {}),
    };
    if (host.state !== 'up') return base;
    try {
      const label = [`${dockerLabels.managed}=true`];
      const [images, containers, baseImage] = await Promise.all([
        host.docker.listImages({ filters: { label } }),
        host.docker.listContainers({ filters: { label } }),
        hasImage(host.docker, baseImageTag()),
      ]);
      return {
        ...base,
        images: images.length,
        containersRunning: containers.length,
        baseImagePresent: baseImage,
      };
    } catch (error) {
      return { ...base, problem: hostErrorMessage(host.config.id, error) };
    }
  }

  /** Waits for the up host with the lowest load that has room, and takes a slot on it. */
  private async acquire(signal: AbortSignal): Promise<HostState> {
    for (;;) {
      signal.throwIfAborted();
      if (this.closed) throw new EngineError('internal', 'the Docker host pool is closed');
      // With one engine there is nowhere else to go: its own errors speak for it.
      const local = this.localOnly;
      if (!local && this.hosts.every((host) => host.state === 'unknown')) await this.probeAll();
      const candidates = this.hosts.filter(
        (host) => (local || host.state === 'up') && host.inFlight < host.config.maxContainers,
      );
      const best = candidates.sort(
        (a, b) => a.inFlight / a.config.maxContainers - b.inFlight / b.config.maxContainers,
      )[0];
      if (best) {
        best.inFlight += 1;
        return best;
      }
      if (this.hosts.every((host) => host.state === 'down')) {
        const problems = this.hosts.map((host) => `${host.config.id}: ${host.problem ?? 'down'}`);
        throw new EngineError(
          'internal',
          `No Docker host answers (${problems.join('; ')}). Start Docker on one of them, or ` +
            'check the hosts with: cuelab env hosts',
        );
      }
      await this.waitForChange(signal);
    }
  }

  private release(host: HostState, finished: boolean): void {
    host.inFlight -= 1;
    if (finished) host.repsDone += 1;
    this.wake();
  }

  private tracked(
    host: HostState,
    environment: ProvisionedJudgeEnvironment,
  ): ProvisionedJudgeEnvironment & { hostId: string } {
    let released = false;
    host.active += 1;
    return {
      ...environment,
      hostId: host.config.id,
      dispose: async () => {
        if (released) return;
        released = true;
        host.active -= 1;
        try {
          await environment.dispose();
        } catch (error) {
          // A container on a host that died cannot be removed now; orphan cleanup removes it
          // when that host's engine comes back.
          if (!isHostUnreachable(error)) throw error;
          this.markDown(host, hostErrorMessage(host.config.id, error));
        } finally {
          this.release(host, host.state === 'up');
        }
      },
    };
  }

  /** Makes sure `host` has `tag`, copying it from an up host that has it. */
  private ensureImage(host: HostState, tag: string, signal: AbortSignal): Promise<void> {
    let ready = host.images.get(tag);
    if (!ready) {
      ready = this.copyImage(host, tag, signal).catch((error: unknown) => {
        host.images.delete(tag);
        throw error;
      });
      host.images.set(tag, ready);
    }
    return ready;
  }

  private async copyImage(host: HostState, tag: string, signal: AbortSignal): Promise<void> {
    if (await hasImage(host.docker, tag)) return;
    for (const source of this.hosts) {
      if (source === host || source.state !== 'up') continue;
      if (!(await hasImage(source.docker, tag).catch(() => false))) continue;
      this.say(`copying ${tag} from ${source.config.id} to ${host.config.id}`);
      await shipImage({
        source: source.docker,
        target: host.docker,
        image: tag,
        ...(tag === baseImageTag() ? { alsoTag: [`${baseImageRepository}:latest`] } : {}),
        signal,
        onProgress: (progress) => this.say(describeShipProgress(host.config.id, progress)),
      });
      return;
    }
    // Not here and on no other host: the item's own preparation says what to do (build the
    // base image, or the exact docker pull).
  }

  private waitForChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, 500);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private say(line: string): void {
    this.options.onProgress?.(line);
  }
}

async function hasImage(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false;
    throw error;
  }
}
