/**
 * Per item, once: a container from the base image (or the spec's image or Dockerfile) is
 * brought to the agent's final state (files, setup commands, replayed shell actions), checked,
 * and committed as `cuelab/item:<hash>`. The hash covers the source image, the spec and the
 * replayed actions, so an unchanged item reuses its snapshot. Judge reps start from it.
 */
import type Docker from 'dockerode';
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import type { Trajectory } from '../../../../shared/trajectory';
import { EngineError } from '../../errors';
import { contentHash } from './archive';
import { ensureBootstrapImage, findBaseImage } from './bootstrap';
import {
  containerLabels,
  dockerLabels,
  itemImageRepository,
  removeContainer,
  requireDocker,
} from './client';
import { buildSuiteImage } from './build-suite-image';
import { checkStartImage } from './build-policy';
import { ensureImage, findImage } from './images';
import {
  containerHostConfig,
  dockerItemSettings,
  keepAliveCommand,
  type DockerItemSettings,
} from './item-settings';
import {
  checkHealth,
  detectTools,
  prepareUser,
  runRootStep,
  stateArchive,
  type ContainerTools,
} from './snapshot-steps';
import { sqliteDatabaseOf } from '../../../../shared/substrates/sqlite';
import type { ContainerRun, ContainerState } from '../../contract';
import { containerStateOf } from '../../substrates';
import { execInContainer } from './exec';

/** An item's snapshot image, ready for reps. */
export interface PreparedItem {
  itemId: string;
  /** `cuelab/item:<hash>`. */
  image: string;
  settings: DockerItemSettings;
  /** Absolute path of the database `sql_query` reads, when the spec names one. */
  databasePath?: string;
  /** A substrate's process that reps start (a PostgreSQL server), when the spec has one. */
  state?: ContainerState;
  tools: ContainerTools;
  /** True when the snapshot already existed. */
  reused: boolean;
  seconds: number;
}

/** Options of `prepareItem`. */
export interface PrepareItemOptions {
  /** The agent's trajectory: needed for `replay`, and part of the snapshot's hash then. */
  trajectory?: Trajectory;
  signal?: AbortSignal;
  docker?: Docker;
  /** Build output, replay failures and other lines worth showing. */
  onProgress?: (line: string) => void;
}

// Part of every snapshot hash: bump it when the way snapshots are made changes, so no stale
// snapshot is reused.
const snapshotFormat = 2;
const inFlight = new Map<string, Promise<PreparedItem>>();

/** Prepares (or reuses) the snapshot image of item `itemId`; concurrent callers share one build. */
export async function prepareItem(
  spec: EnvironmentSpec,
  itemId: string,
  options: PrepareItemOptions = {},
): Promise<PreparedItem> {
  const started = Date.now();
  const { signal } = options;
  const docker = await requireDocker(options.docker);
  const settings = dockerItemSettings(spec, options.trajectory);
  const source = await sourceImage(docker, spec, settings, signal, options.onProgress);
  // Resources are applied per container at run time; everything else shapes the snapshot.
  const hash = contentHash(
    {
      format: snapshotFormat,
      source,
      // `substrate` is read from the fields it names, so it leaves the hash (and every snapshot
      // made before it existed) as it was.
      spec: { ...spec, substrate: undefined, resources: undefined },
      settings: { ...settings, resources: undefined },
      ...stateFormatOf(spec),
    },
    24,
  );
  const tag = `${itemImageRepository}:${hash}`;
  const database = sqliteDatabaseOf(spec);
  const state = containerStateOf(spec);
  const databasePath = database ? joinPath(settings.workdir, database.path) : undefined;
  const prepared = (tools: ContainerTools, reused: boolean): PreparedItem => ({
    itemId,
    image: tag,
    settings,
    ...(databasePath ? { databasePath } : {}),
    ...(state ? { state } : {}),
    tools,
    reused,
    seconds: (Date.now() - started) / 1000,
  });

  for (;;) {
    const existing = await findImage(docker, tag);
    if (existing) return prepared(toolsFromLabels(existing.Config.Labels ?? {}), true);
    const running = inFlight.get(tag);
    if (!running) break;
    try {
      await running;
    } catch {
      signal?.throwIfAborted(); // theirs failed (maybe aborted); try ourselves
    }
  }
  const job = { spec, settings, itemId, source, tag, signal, onProgress: options.onProgress };
  const build = snapshot(docker, job).then((tools) => prepared(tools, false));
  inFlight.set(tag, build);
  try {
    return await build;
  } finally {
    inFlight.delete(tag);
  }
}

/** The state's format, when it has one (absent otherwise, so other snapshots keep their hash). */
function stateFormatOf(spec: EnvironmentSpec): { stateFormat?: number } {
  const format = containerStateOf(spec)?.format;
  return format === undefined ? {} : { stateFormat: format };
}

interface SnapshotJob {
  spec: EnvironmentSpec;
  settings: DockerItemSettings;
  itemId: string;
  source: string;
  tag: string;
  signal: AbortSignal | undefined;
  onProgress: ((line: string) => void) | undefined;
}

/** Builds and commits the snapshot; resolves to the tools it has. Removes its container always. */
async function snapshot(docker: Docker, job: SnapshotJob): Promise<ContainerTools> {
  const { signal, settings } = job;
  const state = containerStateOf(job.spec);
  signal?.throwIfAborted();
  const container = await docker.createContainer({
    Image: job.source,
    Cmd: keepAliveCommand,
    User: '0',
    ...(state ? { Env: [...state.environment] } : {}),
    Labels: containerLabels(job.itemId, 'prepare'),
    HostConfig: containerHostConfig(settings, 'prepare'),
  });
  let removal: Promise<void> | undefined;
  const remove = () => (removal ??= removeContainer(docker, container.id));
  const onAbort = () => void remove().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    await container.start();
    let tools = await detectTools(container, signal);
    await container.putArchive(await stateArchive(job.spec, settings, job.itemId), {
      path: '/',
    });
    const run = containerRun(container);
    // The state's process runs from here to the commit, so setup and the replayed agent reach it.
    await state?.load(run, settings.workdir, signal);
    for (const [index, command] of settings.setup.entries()) {
      const step = await runRootStep(container, command, settings, tools, signal);
      if (step.exitCode !== 0) {
        throw new EngineError(
          'bad_request',
          `Setup command ${index + 1} of item ${job.itemId} failed ` +
            `(${step.timedOut ? 'timed out' : `exit ${step.exitCode}`}): ${command}\n${step.output}`,
        );
      }
    }
    for (const [index, command] of settings.replay.entries()) {
      // The agent's own failures are part of its trajectory: replay them, don't stop.
      const step = await runRootStep(container, command, settings, tools, signal);
      if (step.exitCode !== 0) {
        job.onProgress?.(
          `replayed command ${index + 1} exited ${step.exitCode ?? 'killed'}: ${command}`,
        );
      }
    }
    await prepareUser(container, settings, tools, signal);
    tools = await detectTools(container, signal);
    await checkHealth(container, job.spec, settings, signal);
    await state?.seal(run, signal);
    const [repo, tag] = job.tag.split(':') as [string, string];
    await container.commit({
      repo,
      tag,
      changes: [
        `USER ${settings.user}`,
        `WORKDIR ${settings.workdir}`,
        `LABEL ${dockerLabels.kind}=item`,
        `LABEL ${dockerLabels.item}=${JSON.stringify(job.itemId)}`,
        `LABEL ${dockerLabels.tools}=${toolsLabel(tools)}`,
        `LABEL ${dockerLabels.enginePid}=none`,
        `LABEL ${dockerLabels.engineHost}=none`,
        ...(state?.environment.map((pair) => `ENV ${pair}`) ?? []),
      ],
    });
    return tools;
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await remove();
  }
}

/** The image id the snapshot starts from: the spec's Dockerfile, its image, or the base image. */
async function sourceImage(
  docker: Docker,
  spec: EnvironmentSpec,
  settings: DockerItemSettings,
  signal: AbortSignal | undefined,
  onProgress: ((line: string) => void) | undefined,
): Promise<string> {
  if (spec.dockerfile)
    return buildSuiteImage(docker, spec.dockerfile, spec, settings, {
      signal,
      onProgress,
    });
  if (spec.image) {
    const image = await ensureImage(docker, spec.image, signal);
    await checkStartImage(docker, image.Id, `environment.image ${spec.image}`);
    return image.Id;
  }
  if (spec.image) return (await ensureImage(docker, spec.image, signal)).Id;
  const state = containerStateOf(spec);
  if (state) {
    // Built on first need (about two minutes, once per machine), with its progress shown.
    const image = await ensureBootstrapImage(state.image.kind, {
      docker,
      ...(signal ? { signal } : {}),
      onProgress: (progress) => {
        if (progress.phase !== 'done') onProgress?.(`${state.image.label}: ${progress.message}`);
      },
    });
    return image.id;
  }
  const base = await findBaseImage(docker);
  if (!base) {
    throw new EngineError(
      'internal',
      'The CueLab base image is not built on this machine. Fix: cuelab env bootstrap ' +
        '(once, about a minute, needs root and debootstrap).',
      // Every rep of the study needs it: the runner pauses the study instead of retrying.
      { permanent: 'study' },
    );
  }
  return base.Id;
}

function toolsLabel(tools: ContainerTools): string {
  const names = (Object.keys(tools) as (keyof ContainerTools)[]).filter((name) => tools[name]);
  return names.length ? names.join(',') : 'none';
}

function toolsFromLabels(labels: Record<string, string>): ContainerTools {
  const names = new Set((labels[dockerLabels.tools] ?? '').split(','));
  return {
    timeout: names.has('timeout'),
    python3: names.has('python3'),
    sqlite3: names.has('sqlite3'),
  };
}

/** Where the spec's database lives inside the container. */
export function joinPath(workdir: string, path: string): string {
  return `${workdir.replace(/\/+$/, '')}/${path}`;
}

/**
 * A substrate's commands in a container, through the same exec as every other step. Its own
 * deadline kills the process tree, whatever `timeout` the image has.
 */
export function containerRun(container: Docker.Container): ContainerRun {
  return (argv, options) =>
    execInContainer(container, argv, { ...options, useTimeoutCommand: false });
}
