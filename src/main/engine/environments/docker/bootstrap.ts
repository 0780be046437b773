/**
 * `cuelab env bootstrap`: the base image on a machine that cannot pull. debootstrap builds a
 * minimal Debian with what judges use (sqlite3, python3, git, procps, coreutils, findutils,
 * grep, sed), apt caches are deleted, and the folder is imported as
 * `cuelab/base:<content hash>` (also `cuelab/base:latest`). The hash covers the recipe, so an
 * unchanged recipe is "already built" at once. `--postgres` builds the PostgreSQL image the
 * same way: the base packages plus Debian's `postgresql`, as `cuelab/postgres:<hash>`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type Docker from 'dockerode';
import { EngineError } from '../../errors';
import { contentHash } from './archive';
import { baseImageRepository, dockerLabels, requireDocker } from './client';
import {
  findDebootstrap,
  mountsInside,
  runDebootstrap,
  type DebootstrapRecipe,
} from './debootstrap';
import { defaultPathChange, findImage, importRootfsImage, tagImage } from './images';
import { withFileLock } from './lock';
import { postgresName } from '../../../../shared/substrates/postgres';
import type { BootstrapImageKind } from '../../../../shared/lab-api/environment';

/** One progress line of the bootstrap. */
export interface BootstrapProgress {
  phase: 'check' | 'debootstrap' | 'clean' | 'import' | 'done';
  message: string;
  /** Seconds since the bootstrap started. */
  elapsedSeconds: number;
}

/** Options of `ensureBaseImage`. */
export interface EnsureBaseImageOptions {
  onProgress?: (progress: BootstrapProgress) => void;
  signal?: AbortSignal;
  /** Rebuild even when the image for this recipe exists. */
  force?: boolean;
  /** Debian mirror (default $CUELAB_DEBIAN_MIRROR, else deb.debian.org). */
  mirror?: string;
  docker?: Docker;
}

/** The base image as it is now. */
export interface BaseImage {
  /** `cuelab/base:<hash>`. */
  tag: string;
  id: string;
  sizeBytes: number;
  /** False when the image for this recipe already existed. */
  built: boolean;
  seconds: number;
}

/** Packages added to debootstrap's minbase (which already has coreutils, findutils, grep, sed). */
export const basePackages = ['sqlite3', 'python3', 'git', 'procps'] as const;

/** The images CueLab bootstraps: the base image, and the base plus a PostgreSQL server. */
export type { BootstrapImageKind };

/** The repository of the bootstrapped PostgreSQL image. */
export const postgresImageRepository = 'cuelab/postgres';

/** Debian's PostgreSQL server (15 on bookworm), on top of the base packages. */
export const postgresPackages = ['postgresql'] as const;

const repositories: Record<BootstrapImageKind, string> = {
  base: baseImageRepository,
  postgres: postgresImageRepository,
};

/** The recipe the base image tag hashes; change `format` when the post-processing changes. */
export function baseImageRecipe(mirror?: string): DebootstrapRecipe & { format: number } {
  return {
    format: 1,
    suite: 'bookworm',
    variant: 'minbase',
    packages: [...basePackages],
    mirror: mirror ?? process.env.CUELAB_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian',
  };
}

/** The recipe of an image kind (the base recipe is unchanged, so its tag stays the same). */
export function imageRecipe(
  kind: BootstrapImageKind,
  mirror?: string,
): DebootstrapRecipe & { format: number; kind?: string } {
  const base = baseImageRecipe(mirror);
  if (kind === 'base') return base;
  return { ...base, kind, packages: [...base.packages, ...postgresPackages] };
}

/** `cuelab/base:<hash of the recipe>`. */
export function baseImageTag(mirror?: string): string {
  return bootstrapImageTag('base', mirror);
}

/** `cuelab/<kind>:<hash of the recipe>`. */
export function bootstrapImageTag(kind: BootstrapImageKind, mirror?: string): string {
  return `${repositories[kind]}:${contentHash(imageRecipe(kind, mirror))}`;
}

/** The base image for the current recipe, or undefined when it is not built yet. */
export async function findBaseImage(
  docker: Docker,
  mirror?: string,
): Promise<Docker.ImageInspectInfo | undefined> {
  return findImage(docker, baseImageTag(mirror));
}

/** The PostgreSQL image for the current recipe, or undefined when it is not built yet. */
export async function findPostgresImage(
  docker: Docker,
  mirror?: string,
): Promise<Docker.ImageInspectInfo | undefined> {
  return findImage(docker, bootstrapImageTag(postgresName, mirror));
}

/**
 * Makes sure the base image for the current recipe exists, building it when it does not (or
 * when `force`). Needs root and debootstrap only when it builds. Concurrent callers on one
 * machine wait for a single build.
 */
export async function ensureBaseImage(options: EnsureBaseImageOptions = {}): Promise<BaseImage> {
  return ensureBootstrapImage('base', options);
}

/**
 * Makes sure the PostgreSQL image (the base packages plus Debian's `postgresql`) exists,
 * building it like the base image when it does not. Items with a `postgres` state start from it.
 */
export async function ensurePostgresImage(
  options: EnsureBaseImageOptions = {},
): Promise<BaseImage> {
  return ensureBootstrapImage(postgresName, options);
}

/** Builds (or finds) the bootstrapped image of `kind`; concurrent callers wait for one build. */
export async function ensureBootstrapImage(
  kind: BootstrapImageKind,
  options: EnsureBaseImageOptions = {},
): Promise<BaseImage> {
  const started = Date.now();
  const report = (phase: BootstrapProgress['phase'], message: string) =>
    options.onProgress?.({ phase, message, elapsedSeconds: (Date.now() - started) / 1000 });
  const docker = await requireDocker(options.docker);
  const recipe = imageRecipe(kind, options.mirror);
  const tag = bootstrapImageTag(kind, options.mirror);
  const finish = async (built: boolean): Promise<BaseImage> => {
    await tagImage(docker, tag, `${repositories[kind]}:latest`);
    const image = await findImage(docker, tag);
    if (!image) throw new EngineError('internal', `the base image ${tag} vanished`);
    const seconds = (Date.now() - started) / 1000;
    report('done', `${tag} ${built ? 'built' : 'already built'} (${formatBytes(image.Size)})`);
    return { tag, id: image.Id, sizeBytes: image.Size, built, seconds };
  };
  const previous = await findImage(docker, tag);
  if (previous && !options.force) return finish(false);

  report(
    'check',
    `building ${tag}: debootstrap ${recipe.variant} ${recipe.suite} + ${recipe.packages.join(', ')}`,
  );
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new EngineError(
      'internal',
      'Building the base image needs root (debootstrap creates device nodes and uses chroot). ' +
        'Fix: run "sudo cuelab env bootstrap" once; later runs reuse the image.',
    );
  }
  findDebootstrap();
  const lockPath = join(tmpdir(), `cuelab-bootstrap-${tag.split(':')[1]}.lock`);
  return withFileLock(lockPath, options.signal, async () => {
    // Another process may have built it while this one waited for the lock.
    if (!options.force && (await findImage(docker, tag))) return finish(false);
    const rootfs = mkdtempSync(join(tmpdir(), 'cuelab-rootfs-'));
    try {
      report('debootstrap', `debootstrap into ${rootfs} from ${recipe.mirror}`);
      await runDebootstrap(
        recipe,
        rootfs,
        (message) => report('debootstrap', message),
        options.signal,
      );
      report('clean', 'deleting apt caches');
      deleteAptCaches(rootfs);
      // Items make their own cluster (prepare.ts); the package's default one is dead weight.
      if (kind === postgresName) {
        for (const folder of ['var/lib/postgresql/15/main', 'etc/postgresql/15/main']) {
          rmSync(join(rootfs, folder), { recursive: true, force: true });
        }
      }
      report('import', `importing as ${tag}`);
      await importRootfsImage(docker, {
        source: { directory: rootfs },
        tags: [tag],
        changes: [
          defaultPathChange,
          `LABEL ${dockerLabels.managed}=true`,
          `LABEL ${dockerLabels.kind}=base`,
          ...(kind === 'base' ? [] : [`LABEL cuelab.bootstrap=${kind}`]),
        ],
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const built = await finish(true);
      if (previous && previous.Id !== built.id) await removeReplaced(docker, previous.Id);
      return built;
    } finally {
      removeRootfs(rootfs);
    }
  });
}

/** Removes the image a forced rebuild replaced, unless snapshots still build on it. */
async function removeReplaced(docker: Docker, id: string): Promise<void> {
  try {
    await docker.getImage(id).remove();
  } catch {
    // Item snapshots made from it keep it alive; `cuelab env clean` frees it later.
  }
}

function deleteAptCaches(rootfs: string): void {
  for (const directory of ['var/cache/apt/archives', 'var/cache/apt', 'var/lib/apt/lists']) {
    const path = join(rootfs, directory);
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === 'partial' || name === 'lock' || name === 'archives') continue;
      rmSync(join(path, name), { force: true, recursive: true });
    }
  }
}

/** Deletes the build folder, unmounting anything debootstrap left mounted inside it first. */
function removeRootfs(rootfs: string): void {
  for (const point of mountsInside(rootfs)) spawnSync('umount', ['-l', point]);
  if (mountsInside(rootfs).length > 0) return; // never recurse into a live /proc or /sys
  rmSync(rootfs, { recursive: true, force: true });
}

/** "172 MB" */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.round(bytes / 1e3)} kB`;
}
