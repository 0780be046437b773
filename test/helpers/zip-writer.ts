/**
 * Writes zip archives byte by byte for the archive tests, including the hostile shapes no zip
 * tool makes: central entries that point at one shared local entry, or that declare a size
 * other than the one their data inflates to.
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** One stored entry: its bytes once inflated, and what the central directory says of it. */
export interface ZipFile {
  name: string;
  data: Buffer;
  /** The inflated size the archive declares; the real size when omitted. */
  declaredSize?: number;
}

/** A central directory row: its name and which local entry (index into `files`) it points at. */
export interface CentralRow {
  name: string;
  file: number;
}

/**
 * A zip of `files` (each deflated once) whose central directory lists `rows`; by default one
 * row per file. Rows may point several names at one file: the shared-data bomb.
 */
export function writeZip(files: readonly ZipFile[], rows?: readonly CentralRow[]): Buffer {
  const parts: Buffer[] = [];
  const locals: { offset: number; crc: number; compressed: number; size: number }[] = [];
  let offset = 0;
  for (const file of files) {
    const compressed = deflateRawSync(file.data, { level: 9 });
    const name = Buffer.from(file.name, 'utf8');
    const size = file.declaredSize ?? file.data.length;
    const crc = crc32(file.data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(compressed.length, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(name.length, 26);
    locals.push({ offset, crc, compressed: compressed.length, size });
    parts.push(header, name, compressed);
    offset += header.length + name.length + compressed.length;
  }
  const directoryOffset = offset;
  const listed = rows ?? files.map((file, index) => ({ name: file.name, file: index }));
  for (const row of listed) {
    const local = locals[row.file];
    if (!local) throw new Error(`no file ${row.file}`);
    const name = Buffer.from(row.name, 'utf8');
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(local.crc, 16);
    entry.writeUInt32LE(local.compressed, 20);
    entry.writeUInt32LE(local.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(local.offset, 42);
    parts.push(entry, name);
    offset += entry.length + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(listed.length, 8);
  end.writeUInt16LE(listed.length, 10);
  end.writeUInt32LE(offset - directoryOffset, 12);
  end.writeUInt32LE(directoryOffset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/** An Inspect log header every reader accepts. */
export function inspectHeader(task = 'bomb'): ZipFile {
  return {
    name: 'header.json',
    data: Buffer.from(JSON.stringify({ version: 2, eval: { task, model: 'test/model' } })),
  };
}

/** A sample whose one user message is `bytes` long (JSON of about that size, all one letter). */
export function bigSample(name: string, bytes: number): ZipFile {
  const head = '{"id":1,"epoch":1,"messages":[{"role":"user","content":"';
  const tail = '"},{"role":"assistant","content":"done"}]}';
  const data = Buffer.alloc(bytes, 'a');
  data.write(head, 0, 'utf8');
  data.write(tail, bytes - tail.length, 'utf8');
  return { name, data };
}
