/**
 * A small zip reader for Inspect `.eval` logs and MCPMark state zips. It stays hand-rolled
 * rather than `yauzl`: the importers read synchronously, and yauzl neither refuses entries that
 * share data nor keeps a budget across the whole archive, the two defences a zip bomb needs
 * (a 126 KB `.eval` whose 60 entries all pointed at one 120 MiB sample took the engine down).
 *
 * What a stranger's archive gets: at most `maxEntries` entries; every entry's bytes (local
 * header and data) apart from every other's and from the central directory, checked before
 * anything is inflated; each entry inflated to at most its declared size, `maxEntryBytes` and
 * what is left of the archive's `maxTotalBytes`, zlib stopping as soon as the output passes
 * that (declared sizes are only ever a ceiling, and an entry that inflates to a size other than
 * the one it declares is refused as damaged). Entries are inflated one at a time, on `read()`.
 */
import { inflateRawSync } from 'node:zlib';

/** What one archive may hold; a refusal names the limit it met. */
export interface ZipLimits {
  /** Most entries. */
  maxEntries: number;
  /** Largest entry once inflated. */
  maxEntryBytes: number;
  /** Most bytes all entries read from the archive inflate to, together. */
  maxTotalBytes: number;
}

/** The limits an archive gets unless its reader asks for tighter ones. */
export const defaultZipLimits: ZipLimits = {
  maxEntries: 20_000,
  maxEntryBytes: 128 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
};

/** An archive that breaks one of the limits or shares data between entries. */
export class ArchiveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveRefused';
  }
}

/** One file of the archive. */
export interface ZipEntry {
  name: string;
  /** The size the archive declares (a ceiling, never trusted as the real size). */
  declaredSize: number;
  /** Inflates the entry, charging its bytes to the archive's budget. */
  read(): Buffer;
}

interface EntryPlace {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  dataStart: number;
}

function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

/** The entries of a zip archive; throws an Error naming what is wrong (ArchiveRefused for limits). */
export function readZip(archive: Buffer, limits: Partial<ZipLimits> = {}): ZipEntry[] {
  const limit = { ...defaultZipLimits, ...limits };
  const end = findEndRecord(archive);
  const count = archive.readUInt16LE(end + 10);
  const directorySize = archive.readUInt32LE(end + 12);
  const directoryOffset = archive.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new Error('zip64 archives are not supported');
  }
  if (count > limit.maxEntries)
    throw new ArchiveRefused(
      `the archive has ${count} entries; CueLab reads at most ${limit.maxEntries} from one archive`,
    );
  const places = centralEntries(archive, count, directoryOffset);
  refuseDuplicateNames(places);
  checkApart(places, directoryOffset, directorySize);
  let inflated = 0;
  return places.map((place) => ({
    name: place.name,
    declaredSize: place.size,
    read: () => {
      const bytes = inflateEntry(archive, place, limit, inflated);
      inflated += bytes.length;
      return bytes;
    },
  }));
}

function centralEntries(archive: Buffer, count: number, directoryOffset: number): EntryPlace[] {
  const places: EntryPlace[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > archive.length || archive.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`central directory entry ${index + 1} is damaged`);
    }
    const nameLength = archive.readUInt16LE(offset + 28);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    const localOffset = archive.readUInt32LE(offset + 42);
    if (localOffset + 30 > archive.length || archive.readUInt32LE(localOffset) !== 0x04034b50) {
      throw new Error(`${name}: local header is damaged`);
    }
    places.push({
      name,
      method: archive.readUInt16LE(offset + 10),
      compressedSize: archive.readUInt32LE(offset + 20),
      size: archive.readUInt32LE(offset + 24),
      localOffset,
      dataStart:
        localOffset +
        30 +
        archive.readUInt16LE(localOffset + 26) +
        archive.readUInt16LE(localOffset + 28),
    });
    offset +=
      46 + nameLength + archive.readUInt16LE(offset + 30) + archive.readUInt16LE(offset + 32);
  }
  return places;
}

/**
 * Refuses an archive with two entries of one name: which of them a reader takes differs from
 * reader to reader (the first, the last, both), so what CueLab imported could differ from what
 * the person who checked the archive saw.
 */
function refuseDuplicateNames(places: readonly EntryPlace[]): void {
  const seen = new Set<string>();
  for (const { name } of places) {
    if (seen.has(name))
      throw new ArchiveRefused(
        `the archive has two entries named ${JSON.stringify(name)}; CueLab reads only archives whose entry names are unique`,
      );
    seen.add(name);
  }
}

/**
 * Refuses entries whose bytes overlap another entry's or the central directory: an honest
 * writer puts each entry's data once, so shared data only ever serves to inflate one payload
 * many times over.
 */
function checkApart(places: readonly EntryPlace[], directoryOffset: number, directorySize: number) {
  const ranges = places
    .map((place) => ({
      name: place.name,
      start: place.localOffset,
      end: place.dataStart + place.compressedSize,
    }))
    .sort((a, b) => a.start - b.start);
  for (const [index, range] of ranges.entries()) {
    const previous = ranges[index - 1];
    if (previous && range.start < previous.end)
      throw new ArchiveRefused(
        `entries ${previous.name} and ${range.name} share data (overlapping entries, the shape of a zip bomb); CueLab reads only archives whose entries are apart`,
      );
    if (range.start < directoryOffset + directorySize && range.end > directoryOffset)
      throw new ArchiveRefused(`entry ${range.name} overlaps the central directory`);
  }
}

function findEndRecord(archive: Buffer): number {
  // The end record is 22 bytes plus a comment of at most 65535.
  const lowest = Math.max(0, archive.length - 22 - 0xffff);
  for (let offset = archive.length - 22; offset >= lowest; offset -= 1) {
    if (archive.readUInt32LE(offset) === 0x06054b50) return offset;
  }
  throw new Error('not a zip archive (no end of central directory)');
}

function inflateEntry(archive: Buffer, entry: EntryPlace, limit: ZipLimits, spent: number): Buffer {
  if (entry.size > limit.maxEntryBytes)
    throw new ArchiveRefused(
      `${entry.name} is ${mib(entry.size)} once inflated; CueLab reads at most ${mib(limit.maxEntryBytes)} per entry`,
    );
  const left = limit.maxTotalBytes - spent;
  if (entry.size > left)
    throw new ArchiveRefused(
      `the archive inflates to more than ${mib(limit.maxTotalBytes)} in all (at ${entry.name}); CueLab reads at most that from one archive`,
    );
  const data = archive.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error(`${entry.name}: data is cut short`);
  let bytes: Buffer;
  if (entry.method === 0) bytes = Buffer.from(data);
  else if (entry.method !== 8)
    throw new Error(`${entry.name}: compression method ${entry.method} is not supported`);
  else {
    try {
      // zlib stops once the output would pass the declared size: that is the real-size check.
      bytes = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ArchiveRefused(
          `${entry.name} cannot be inflated: it holds more than the ${entry.size} bytes it declares (a damaged or hostile archive)`,
        );
      throw new Error(`${entry.name}: cannot be inflated (${(error as Error).message})`);
    }
  }
  if (bytes.length !== entry.size)
    throw new ArchiveRefused(
      `${entry.name} holds ${bytes.length} bytes but declares ${entry.size} (a damaged or hostile archive)`,
    );
  return bytes;
}
