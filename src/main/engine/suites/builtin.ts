/**
 * Suites that ship with CueLab (in `resources/suites/`), imported into a workspace on first
 * use, and re-imported when the shipped file changes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteFile, SuiteItem } from '../../../shared/suite-format';
import { EngineError } from '../errors';
import { type Store } from '../store';
import { listSuiteItems, saveSuite, storedBuiltinVersion } from '../store/faces/suites';
import { parseSuite } from './load';

/** Ids of the suites CueLab ships. */
export const builtinSuiteIds = ['cuelab-mini', 'cuelab-long'] as const;

/** The folder holding CueLab's shipped resources (built app, tests, or CUELAB_RESOURCES). */
export function resourcesDir(): string {
  const candidates = [
    process.env.CUELAB_RESOURCES,
    join(__dirname, '..', '..', 'resources'),
    // Code the CLI shares with the worker program is bundled into out/main/chunks/.
    join(__dirname, '..', '..', '..', 'resources'),
    join(__dirname, '..', '..', '..', '..', 'resources'),
  ].filter((candidate): candidate is string => Boolean(candidate));
  const found = candidates.find((candidate) => existsSync(join(candidate, 'suites')));
  if (!found)
    throw new EngineError(
      'internal',
      `CueLab's resources folder was not found (looked in ${candidates.join(', ')}).`,
    );
  return found;
}

/** The shipped suite file, parsed. */
export function loadBuiltinSuite(id: string): SuiteFile {
  const path = join(resourcesDir(), 'suites', `${id}.json`);
  if (!existsSync(path))
    throw new EngineError('not_found', `CueLab does not ship a suite "${id}".`);
  return parseSuite(readFileSync(path, 'utf8'), path);
}

/** The shipped files' content versions, remembered per file size and modification time. */
const shippedVersions = new Map<string, { stamp: string; version: string }>();

/** The shipped file's content version and, when it had to be read for it, its text. */
function shippedVersion(path: string): { version: string; text: string | null } {
  const stats = statSync(path);
  const stamp = `${stats.size}:${stats.mtimeMs}`;
  const held = shippedVersions.get(path);
  if (held?.stamp === stamp) return { version: held.version, text: null };
  // Hashed as bytes, natively: the engine's thread does this as it starts, and a JavaScript
  // hash of the 1.9 MB long suite's text took it 40-90 ms.
  const bytes = readFileSync(path);
  const version = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  shippedVersions.set(path, { stamp, version });
  return { version, text: bytes.toString('utf8') };
}

/**
 * Imports a built-in suite when the workspace lacks it or holds an older copy; does nothing for
 * another suite id or when the file is not shipped. Reads no stored item.
 */
export function refreshBuiltinSuite(store: Store, suiteId: string): void {
  if (!(builtinSuiteIds as readonly string[]).includes(suiteId)) return;
  const path = join(resourcesDir(), 'suites', `${suiteId}.json`);
  if (!existsSync(path)) return;
  const shipped = shippedVersion(path);
  if (storedBuiltinVersion(store, suiteId) !== shipped.version)
    saveSuite(store, parseSuite(shipped.text ?? readFileSync(path, 'utf8'), path), 'builtin', {
      builtinVersion: shipped.version,
    });
}

/** The suite's items, importing a built-in suite first when the workspace lacks it (or has an old copy). */
export function ensureSuite(store: Store, suiteId: string): { items: SuiteItem[] } {
  refreshBuiltinSuite(store, suiteId);
  const items = listSuiteItems(store, suiteId);
  if (items.length === 0) {
    throw new EngineError(
      'not_found',
      `There is no suite "${suiteId}" in this workspace. Import it with: cuelab suite import FILE`,
    );
  }
  return { items };
}
