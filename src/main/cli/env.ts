/**
 * `cuelab env`: the Docker side of the lab. `bootstrap` builds the base image on a machine
 * that cannot pull, `status` says what is ready, `clean` removes what CueLab left behind.
 */
import { parseArgs } from 'node:util';
import type Docker from 'dockerode';
import { createEngine, workspaceForProcess } from '../engine/engine';
import { withInterrupt } from './interrupt';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { envHosts, envHostsUsage } from './env-hosts';
import { didYouMean } from './suggest';
import {
  baseImageTag,
  bootstrapImageTag,
  createDockerClient,
  ensureBootstrapImage,
  ensureWorkspaceSuite,
  findBaseImage,
  findPostgresImage,
  formatBytes,
  isOrphan,
  listManagedContainers,
  listManagedImages,
  probeDocker,
  pullSuiteImages,
  removeItemImages,
  removeOrphans,
  requireDocker,
  suiteImages,
} from '../engine/machine';
import { postgresName } from '../../shared/substrates/postgres';
import type { BootstrapImageKind } from '../../shared/lab-api/environment';

/** `cuelab env`: bootstrap the base image, show Docker status, clean up. */
export const envCommand: CliCommand = {
  name: 'env',
  // It builds and cleans this machine's Docker images; only `env hosts` reaches an engine.
  local: (args) => args[0] !== 'hosts',
  summary: 'Build the Docker base image for judge environments, show their status, clean up',
  usage: `Usage: cuelab env bootstrap [--postgres] [--force]
       cuelab env status
       cuelab env clean
       cuelab env pull SUITE [--workspace DIR]
${envHostsUsage}

bootstrap  builds the base image judges' containers start from, without any registry:
           debootstrap (minbase bookworm + sqlite3, python3, git, procps), imported as
           cuelab/base:<recipe hash> and cuelab/base:latest. Needs root and debootstrap
           (apt-get install -y debootstrap); about a minute. Instant when the image for
           the current recipe exists, unless --force. --postgres builds the PostgreSQL
           image instead (the same packages plus Debian's postgresql, as
           cuelab/postgres:<recipe hash>), which Postgres items start from.
status     Docker's state, the base image (tag and size, or how to build it), orphan
           containers and item snapshot images.
clean      removes orphan containers (left by an engine that is gone) and item snapshot
           images (rebuilt when next needed). The base image stays.
pull       pulls every image the items of SUITE start from (e.g. the SWE-bench eval images
           of an imported run), with progress; one that cannot be pulled is named with the
           exact docker pull to run where a registry answers. Exits 1 if any is missing.`,
  async run(args, io, context) {
    if (args[0] === 'hosts') return envHosts(args.slice(1), io, context);
    const { values, positionals } = parseArgs({
      args,
      options: {
        force: { type: 'boolean', default: false },
        postgres: { type: 'boolean', default: false },
        workspace: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const [action, ...extra] = positionals;
    if (action === 'pull') {
      if (extra.length !== 1) throw new UsageError('env pull needs one SUITE');
      return withInterrupt((signal) => pullImages(io, extra[0]!, values.workspace, signal));
    }
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    if (values.workspace) throw new UsageError('--workspace is for env pull and env hosts');
    if ((values.force || values.postgres) && action !== 'bootstrap') {
      throw new UsageError('--force and --postgres are for bootstrap');
    }
    switch (action) {
      case 'bootstrap':
        return withInterrupt((signal) =>
          bootstrap(io, values.postgres ? postgresName : 'base', values.force, signal),
        );
      case 'status':
        return status(io);
      case 'clean':
        return clean(io, await requireDocker());
      default:
        throw new UsageError(
          action
            ? `unknown action "${action}".${didYouMean(action, ['bootstrap', 'status', 'clean', 'pull', 'hosts'])} Use bootstrap, status, clean, pull or hosts.`
            : 'name an action: bootstrap, status, clean, pull or hosts',
        );
    }
  },
};

async function bootstrap(
  io: CliIo,
  kind: BootstrapImageKind,
  force: boolean,
  signal: AbortSignal,
): Promise<number> {
  const image = await ensureBootstrapImage(kind, {
    force,
    signal,
    onProgress: (progress) => {
      // The summary below says how it ended.
      if (progress.phase !== 'done') {
        io.out(`[${progress.elapsedSeconds.toFixed(1).padStart(5)} s] ${progress.message}`);
      }
    },
  });
  io.out(
    image.built
      ? `Built ${image.tag} (also cuelab/${kind}:latest), ${formatBytes(image.sizeBytes)}, in ${image.seconds.toFixed(1)} s.`
      : `${image.tag} is already built (${formatBytes(image.sizeBytes)}); use --force to rebuild.`,
  );
  return exitCodes.ok;
}

async function status(io: CliIo): Promise<number> {
  const docker = createDockerClient();
  const state = await probeDocker(3000, docker);
  if (!state.available) {
    io.out(`Docker: unavailable. ${state.problem ?? ''}`);
    io.out(`Fix:\n${state.fix ?? ''}`);
    return exitCodes.failed;
  }
  io.out(`Docker: available (engine ${state.version ?? 'unknown'})`);
  const base = await findBaseImage(docker);
  io.out(
    base
      ? `Base image: ${baseImageTag()} present (${formatBytes(base.Size)})`
      : `Base image: ${baseImageTag()} absent. Build it with: cuelab env bootstrap`,
  );
  const containers = await listManagedContainers(docker);
  const orphans = containers.filter((container) => isOrphan(container)).length;
  io.out(`Containers: ${containers.length} CueLab container(s), ${orphans} orphan(s)`);
  const items = await listManagedImages(docker, 'item');
  io.out(`Item snapshots: ${items.length} image(s)`);
  const postgres = await findPostgresImage(docker);
  const postgresTag = bootstrapImageTag(postgresName);
  io.out(
    postgres
      ? `PostgreSQL image: ${postgresTag} present (${formatBytes(postgres.Size)})`
      : `PostgreSQL image: ${postgresTag} absent (built on first need, or: cuelab env bootstrap --postgres)`,
  );
  return exitCodes.ok;
}

async function clean(io: CliIo, docker: Docker): Promise<number> {
  const orphans = await removeOrphans({ docker });
  io.out(`Removed ${orphans.length} orphan container(s).`);
  const images = await removeItemImages({ docker });
  io.out(`Removed ${images.removed.length} item snapshot image(s).`);
  for (const image of images.kept) io.err(`Kept ${image.id}: ${image.reason}`);
  return images.kept.length ? exitCodes.failed : exitCodes.ok;
}

async function pullImages(
  io: CliIo,
  suite: string,
  workspace: string | undefined,
  signal: AbortSignal,
): Promise<number> {
  const engine = createEngine(workspaceForProcess(workspace));
  let items;
  try {
    items = ensureWorkspaceSuite(engine, suite).items;
  } finally {
    engine.close();
  }
  const docker = await requireDocker();
  const needed = suiteImages(items);
  if (needed.size === 0) {
    io.out(`The items of ${suite} name no image: they start from the CueLab base image.`);
    return exitCodes.ok;
  }
  io.out(`${suite} needs ${needed.size} image(s).`);
  const results = await pullSuiteImages(docker, items, {
    signal,
    onProgress: (line) => io.out(line),
  });
  for (const result of results) {
    const what = `${result.image} (${result.items} item${result.items === 1 ? '' : 's'})`;
    if (result.state === 'failed') io.err(`missing  ${what}: ${result.problem ?? ''}`);
    else io.out(`${result.state === 'present' ? 'present' : 'pulled '}  ${what}`);
  }
  const failed = results.filter((result) => result.state === 'failed').length;
  if (failed) io.err(`${failed} of ${results.length} image(s) are not on this machine.`);
  return failed ? exitCodes.failed : exitCodes.ok;
}
