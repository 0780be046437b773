/**
 * Images for Docker tests, built once per machine and reused (tags are content hashes):
 * a busybox-static root filesystem imported in well under a second, and the bootstrapped
 * Debian base image (sqlite3, python3) for tests that need those.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import {
  packArchive,
  contentHash,
  type ArchiveEntry,
} from '../../src/main/engine/environments/docker/archive';
import {
  ensureBaseImage,
  type BaseImage,
} from '../../src/main/engine/environments/docker/bootstrap';
import { findImage, importRootfsImage } from '../../src/main/engine/environments/docker/images';

const busyboxCandidates = ['/bin/busybox', '/usr/bin/busybox'];

/** The static busybox binary of this machine, or an error naming the package to install. */
export function staticBusybox(): string {
  const path = busyboxCandidates.find((candidate) => existsSync(candidate));
  if (!path || !isStaticElf(readFileSync(path))) {
    throw new Error('These tests need a static busybox. Fix: apt-get install -y busybox-static');
  }
  return path;
}

/** A root filesystem of busybox and its applet links, users root and nobody. */
export async function busyboxRootfs(): Promise<Buffer> {
  const binary = staticBusybox();
  const applets = execFileSync(binary, ['--list-full'], { encoding: 'utf8' })
    .split('\n')
    .filter((path) => path && path !== 'bin/busybox');
  const entries: ArchiveEntry[] = [
    { path: 'bin', type: 'directory' },
    { path: 'sbin', type: 'directory' },
    { path: 'usr/bin', type: 'directory' },
    { path: 'usr/sbin', type: 'directory' },
    { path: 'tmp', type: 'directory', mode: 0o1777 },
    { path: 'root', type: 'directory', mode: 0o700 },
    { path: 'home', type: 'directory' },
    {
      path: 'etc/passwd',
      content: 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n',
    },
    { path: 'etc/group', content: 'root:x:0:\nnogroup:x:65534:\n' },
    { path: 'bin/busybox', content: readFileSync(binary), mode: 0o755 },
    ...applets.map((path): ArchiveEntry => ({ path, type: 'symlink', linkTarget: '/bin/busybox' })),
  ];
  return packArchive(entries);
}

/** Imports (once) the busybox image; resolves to its tag. */
export async function busyboxImage(docker: Docker): Promise<string> {
  const binary = createHash('sha256').update(readFileSync(staticBusybox())).digest('hex');
  const tag = `cuelab-test/busybox:${contentHash({ format: 1, binary })}`;
  if (await findImage(docker, tag)) return tag;
  await importRootfsImage(docker, {
    source: { stream: Readable.from(await busyboxRootfs()) },
    tags: [tag],
  });
  return tag;
}

/** The bootstrapped base image (built once, about a minute; cached by its recipe hash). */
export async function baseImageForTest(docker: Docker): Promise<BaseImage> {
  return ensureBaseImage({
    docker,
    onProgress: (progress) =>
      process.stderr.write(
        `[bootstrap ${progress.elapsedSeconds.toFixed(1)}s] ${progress.message}\n`,
      ),
  });
}

/** True for an ELF binary without an interpreter (statically linked). */
function isStaticElf(bytes: Buffer): boolean {
  if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) return false;
  const is64 = bytes[4] === 2;
  const little = bytes[5] === 1;
  const read16 = (offset: number) =>
    little ? bytes.readUInt16LE(offset) : bytes.readUInt16BE(offset);
  const read32 = (offset: number) =>
    little ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset);
  const tableOffset = is64
    ? Number(little ? bytes.readBigUInt64LE(0x20) : bytes.readBigUInt64BE(0x20))
    : read32(0x1c);
  const entrySize = read16(is64 ? 0x36 : 0x2a);
  const count = read16(is64 ? 0x38 : 0x2c);
  for (let index = 0; index < count; index += 1) {
    if (read32(tableOffset + index * entrySize) === 3) return false; // PT_INTERP
  }
  return true;
}
