/**
 * A real small file system for disk-full tests: a tmpfs of a few megabytes mounted for the
 * test (the tests run as root), and a filler that uses up its free space.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A mounted tmpfs and its removal. */
export interface SmallDisk {
  path: string;
  /** Writes a file until the disk is full; returns the bytes written. */
  fill(): number;
  /** Deletes the filler: the space is free again. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `megabytes` at `path`; throws with the reason when it cannot. */
export function mountSmallDisk(path: string, megabytes: number): SmallDisk {
  mkdirSync(path, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', path], {
      stdio: 'pipe',
    });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error);
    throw new Error(`Cannot mount a tmpfs at ${path} (the disk-full tests need root): ${said}`);
  }
  const filler = join(path, 'filler.bin');
  return {
    path,
    fill() {
      const descriptor = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      let written = 0;
      try {
        for (;;) written += writeSync(descriptor, chunk);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(descriptor);
      }
      // Whatever is smaller than a chunk, too.
      const byte = openSync(filler, 'a');
      try {
        for (;;) written += writeSync(byte, Buffer.alloc(512, 1));
      } catch {
        // full
      } finally {
        closeSync(byte);
      }
      return written;
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      rmSync(path, { recursive: true, force: true });
    },
  };
}
