/** The methods whose answer may come encoded: the exports, whose answers carry whole files. */
export type EncodedMethod = 'exportBundle' | 'exportInspect';

/**
 * A handler's answer that a worker has already encoded as JSON bytes (workers/json-chunks.ts).
 * The HTTP server writes the bytes as they are, so the engine's thread neither copies a large
 * answer into objects nor serialises it again (an Inspect export's logs held it for most of a
 * second at 3,528 reps). Whoever needs the value in this process (the CLI without `--engine`,
 * the dev-mode contract check) gets it through `toJSON`, as `JSON.stringify` asks for it.
 */
export class EncodedAnswer<T = unknown> {
  /** Only in the type: the answer's shape, for the handler that returns it. */
  declare readonly answer?: T;

  constructor(readonly chunks: readonly Uint8Array[]) {}

  /** How many bytes the JSON text has. */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }

  /** The answer as a value (parsed from the bytes). */
  toJSON(): T {
    return JSON.parse(Buffer.concat(this.chunks).toString('utf8')) as T;
  }
}
