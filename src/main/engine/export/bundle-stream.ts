/**
 * A bundle file written as it is read (bundle-export.ts): text goes in piece by piece, a few
 * megabytes are held at a time, each gzipped and appended to `FILE.partial` as one gzip member
 * (a file of several members is one gzip stream to every reader: zlib, gzip -d, Python), and the
 * file is renamed to its name only once complete. Memory stays bounded whatever the study's
 * size, and no string ever nears V8's longest (about 512 MB), which the whole-bundle exporter
 * passed at paper scale.
 *
 * The writer counts the bytes it was given (the bundle's size once decompressed) and stops with
 * `BundleTooLarge` the moment they pass `maxBytes`: a bundle `openBundle` would refuse is never
 * finished. A writer that stops for any reason removes its partial file.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { EngineError } from '../errors';

/** Bytes of text gathered before they are compressed and written (one gzip member each). */
const memberBytes = 4 * 1024 * 1024;

/** Thrown by `write` when the text passes the writer's limit. */
export class BundleTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`the bundle passed ${bytes} bytes`);
    this.name = 'BundleTooLarge';
  }
}

/** A gzipped file written in pieces through `FILE.partial`. */
export class BundleFileWriter {
  private readonly partial: string;
  private fd: number | null;
  private pending: string[] = [];
  private pendingBytes = 0;
  /** Bytes of text given so far (the file's size once decompressed). */
  textBytes = 0;
  /** Bytes written to the file so far (compressed). */
  fileBytes = 0;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {
    this.partial = `${file}.partial`;
    try {
      this.fd = openSync(this.partial, 'w');
    } catch (error) {
      throw cannotWrite(file, error);
    }
  }

  /** Adds `text`; throws BundleTooLarge once the text given passes the limit. */
  write(text: string): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    this.textBytes += bytes;
    if (this.textBytes > this.maxBytes) throw new BundleTooLarge(this.textBytes);
    this.pending.push(text);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= memberBytes) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes === 0 || this.fd === null) return;
    const data = gzipSync(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingBytes = 0;
    try {
      writeSync(this.fd, data);
    } catch (error) {
      throw cannotWrite(this.file, error);
    }
    this.fileBytes += data.length;
  }

  /** Writes what is left and gives the file its name; returns the file's size in bytes. */
  finish(): number {
    this.flush();
    try {
      if (this.fd !== null) closeSync(this.fd);
      this.fd = null;
      renameSync(this.partial, this.file);
    } catch (error) {
      throw cannotWrite(this.file, error);
    }
    return this.fileBytes;
  }

  /** Stops without a file: the partial file is removed (after any error, before rethrowing). */
  abandon(): void {
    this.pending = [];
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing is only tidying here; the file goes either way.
      }
      this.fd = null;
    }
    rmSync(this.partial, { force: true });
  }
}

function cannotWrite(file: string, error: unknown): EngineError {
  return new EngineError('bad_request', `Cannot write ${file}: ${(error as Error).message}.`);
}
