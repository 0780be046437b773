/**
 * dockerode, loaded on first use. Requiring it (with ssh2 and its crypto) costs about half a
 * second of start-up, which every CLI command and the engine's ready line paid even when
 * nothing touched Docker (`cuelab --help`, `cuelab report`, a served lab with no study).
 */
import { createRequire } from 'node:module';
import type Docker from 'dockerode';

let loaded: typeof Docker | undefined;

/** A Docker client (the constructor is required the first time one is made). */
export function newDocker(options?: Docker.DockerOptions): Docker {
  loaded ??= createRequire(__filename)('dockerode') as typeof Docker;
  return new loaded(options);
}
