/**
 * Ensembles shipped in resources/ensembles, chosen by name where a voters file is asked for
 * (`cuelab classify STUDY --voters paper-meta-judge`). A path that exists always wins, so a
 * user's file named like a preset is still theirs.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resourcesDir } from '../engine/machine';

/** The folder of shipped ensembles. */
export function ensemblePresetDir(): string {
  return join(resourcesDir(), 'ensembles');
}

/** Names of the shipped ensembles (file names without `.yaml`). */
export function ensemblePresetNames(): string[] {
  const dir = ensemblePresetDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => name.slice(0, -'.yaml'.length))
    .sort();
}

/** The file `--voters ARG` means: ARG itself when it exists, else the shipped preset of that name. */
export function votersFilePath(argument: string): string {
  if (existsSync(argument)) return argument;
  if (ensemblePresetNames().includes(argument))
    return join(ensemblePresetDir(), `${argument}.yaml`);
  return argument;
}
