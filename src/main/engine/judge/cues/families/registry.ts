/**
 * The cue-family registry: the built-ins shipped in `resources/cue-families/`, and the
 * researcher's families in `<workspace>/cue-families/` (dropped there or imported). The
 * Builder, the CLI, specs, the prompt composer and the simulation read families from here; a
 * study keeps a copy of every family it uses in its spec (`cueFamilies`), so it replays and
 * travels in a bundle without the registry.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CueFamily, CueFamilyEntry } from '../../../../../shared/cue-family';
import { EngineError } from '../../../errors';
import { loadCueFamilyFile } from './parse';

/** The folder of a workspace that holds its cue families. */
export function workspaceFamiliesDir(workspace: string): string {
  return join(workspace, 'cue-families');
}

/** A family file name: plain, no folders, no leading dot, JSON or YAML. */
const familyFileName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.(json|ya?ml)$/;

/** Most family files read from one folder. */
const MAX_FAMILY_FILES = 200;

function builtinDir(): string {
  const fromEnv = process.env.CUELAB_RESOURCES;
  if (fromEnv && existsSync(join(fromEnv, 'cue-families'))) return join(fromEnv, 'cue-families');
  // The built main bundle, the CLI and the sources sit at different depths below the repo.
  let dir = __dirname;
  for (let depth = 0; depth < 8; depth += 1) {
    const candidate = join(dir, 'resources', 'cue-families');
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new EngineError('internal', 'CueLab’s resources/cue-families folder was not found.');
}

/** Reads every family file of a folder; a file that fails is reported, the rest still load. */
export function readFamilyFolder(dir: string): { families: CueFamily[]; problems: string[] } {
  const families: CueFamily[] = [];
  const problems: string[] = [];
  if (!existsSync(dir)) return { families, problems };
  const names = readdirSync(dir)
    .filter((name) => familyFileName.test(name))
    .sort();
  for (const name of names.slice(0, MAX_FAMILY_FILES)) {
    const path = join(dir, name);
    // A link could point anywhere on the machine: only regular files in the folder itself.
    if (!lstatSync(path).isFile()) {
      problems.push(`${path}: not a regular file (links are not followed); skipped.`);
      continue;
    }
    try {
      families.push(loadCueFamilyFile(path));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (names.length > MAX_FAMILY_FILES)
    problems.push(`${dir}: only the first ${MAX_FAMILY_FILES} family files were read.`);
  return { families, problems };
}

const registry = new Map<string, CueFamilyEntry>();
let builtinsLoaded = false;

function ensureBuiltins(): void {
  if (builtinsLoaded) return;
  const { families, problems } = readFamilyFolder(builtinDir());
  if (problems.length > 0)
    throw new EngineError('internal', `A built-in cue family is broken:\n${problems.join('\n')}`);
  for (const family of families) registry.set(family.id, { family, origin: 'builtin' });
  builtinsLoaded = true;
}

/** Adds a family; a built-in id cannot be taken by another family. */
export function registerCueFamily(family: CueFamily, origin: CueFamilyEntry['origin']): void {
  ensureBuiltins();
  const existing = registry.get(family.id);
  if (existing?.origin === 'builtin' && origin !== 'builtin') {
    if (JSON.stringify(existing.family) === JSON.stringify(family)) return;
    throw new EngineError(
      'bad_request',
      `The cue family id "${family.id}" is a built-in family; give yours another id.`,
    );
  }
  registry.set(family.id, { family, origin });
}

/** Every registered family, built-ins first, then by id. */
export function listCueFamilies(): CueFamilyEntry[] {
  ensureBuiltins();
  const rank = { builtin: 0, workspace: 1, study: 2 } as const;
  return [...registry.values()].sort(
    (a, b) => rank[a.origin] - rank[b.origin] || a.family.id.localeCompare(b.family.id),
  );
}

/** The family with this id; throws, listing the known ids, when there is none. */
export function findCueFamily(id: string): CueFamily {
  ensureBuiltins();
  const entry = registry.get(id);
  if (!entry) {
    const known = [...registry.keys()].sort().join(', ');
    throw new EngineError('not_found', `Unknown cue family "${id}". Known families: ${known}.`);
  }
  return entry.family;
}

/** Registers the families in `<workspace>/cue-families/`; returns the problems of files that failed. */
export function loadWorkspaceFamilies(workspace: string): string[] {
  const { families, problems } = readFamilyFolder(workspaceFamiliesDir(workspace));
  for (const family of families) {
    try {
      registerCueFamily(family, 'workspace');
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}

/**
 * Imports a validated family into the workspace: written as `<id>.json` (the name comes from
 * the validated id, never from the file's path) and registered.
 */
export function importCueFamily(workspace: string, family: CueFamily): string {
  registerCueFamily(family, 'workspace');
  const dir = workspaceFamiliesDir(workspace);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${family.id}.json`);
  writeFileSync(path, `${JSON.stringify(family, null, 2)}\n`, { mode: 0o600 });
  return path;
}
