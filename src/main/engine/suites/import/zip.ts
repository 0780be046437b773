/**
 * A small zip reader for Inspect `.eval` logs (issue 11: no new dependency): the central
 * directory is read from its end record, entries are stored or deflated (inflateRawSync),
 * and sizes are capped so a hostile archive cannot exhaust memory.
 */
import { inflateRawSync } from 'node:zlib';

/** Most entries read from one archive. */
export const maxEntries = 20_000;
/** Largest entry inflated. */
export const maxEntryBytes = 128 * 1024 * 1024;

/** One file of the archive. */
export interface ZipEntry {
  name: string;
  /** Inflates the entry (capped at `maxEntryBytes`). */
  read(): Buffer;
}

/** The entries of a zip archive; throws a plain Error naming what is wrong. */
export function readZip(archive: Buffer): ZipEntry[] {
  const end = findEndRecord(archive);
  const count = archive.readUInt16LE(end + 10);
  const directoryOffset = archive.readUInt32LE(end + 16);
  if (count > maxEntries) throw new Error(`the archive has more than ${maxEntries} entries`);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new Error('zip64 archives are not supported');
  }
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > archive.length || archive.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`central directory entry ${index + 1} is damaged`);
    }
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const size = archive.readUInt32LE(offset + 24);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    entries.push({
      name,
      read: () => inflateEntry(archive, { name, method, compressedSize, size, localOffset }),
    });
  }
  return entries;
}

function findEndRecord(archive: Buffer): number {
  // The end record is 22 bytes plus a comment of at most 65535.
  const lowest = Math.max(0, archive.length - 22 - 0xffff);
  for (let offset = archive.length - 22; offset >= lowest; offset -= 1) {
    if (archive.readUInt32LE(offset) === 0x06054b50) return offset;
  }
  throw new Error('not a zip archive (no end of central directory)');
}

function inflateEntry(
  archive: Buffer,
  entry: {
    name: string;
    method: number;
    compressedSize: number;
    size: number;
    localOffset: number;
  },
): Buffer {
  if (entry.size > maxEntryBytes)
    throw new Error(`${entry.name} is larger than ${maxEntryBytes} bytes`);
  const local = entry.localOffset;
  if (local + 30 > archive.length || archive.readUInt32LE(local) !== 0x04034b50) {
    throw new Error(`${entry.name}: local header is damaged`);
  }
  const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
  const data = archive.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error(`${entry.name}: data is cut short`);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method !== 8)
    throw new Error(`${entry.name}: compression method ${entry.method} is not supported`);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
  } catch (error) {
    throw new Error(`${entry.name}: cannot be inflated (${(error as Error).message})`);
  }
}
