/**
 * The folders a served engine lets the window name by path on the Import screen (and every
 * other path field, server/path-access.ts): the workspace, the example runs CueLab ships, and
 * folders the user added in Settings. The added ones persist in the workspace as
 * `import-folders.json`, so they hold for every later `npm start` or `cuelab serve` on it.
 * Only this machine's user adds them: a non-loopback peer may still only upload.
 */
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import type { ImportFolder } from '../../shared/lab-api/import';
import { EngineError } from './errors';
import { resourcesDir } from './suites';

const fileSchema = z.object({ folders: z.array(z.string()) });

function foldersFile(workspace: string): string {
  return join(workspace, 'import-folders.json');
}

/** The folders the user added, as stored (an unreadable file counts as none, and says why). */
function readAdded(workspace: string): string[] {
  const path = foldersFile(workspace);
  if (!existsSync(path)) return [];
  try {
    return fileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).folders;
  } catch (error) {
    throw new EngineError(
      'internal',
      `${path} is not a list of import folders (${(error as Error).message}). ` +
        'Fix: delete it and add the folders again in Settings.',
    );
  }
}

function writeAdded(workspace: string, folders: readonly string[]): void {
  writeFileSync(foldersFile(workspace), `${JSON.stringify({ folders }, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** Where the example runs CueLab ships live (resources/runs), or null when absent. */
function exampleRunsFolder(): string | null {
  try {
    const folder = join(resourcesDir(), 'runs');
    return existsSync(folder) ? folder : null;
  } catch {
    return null;
  }
}

/** Every folder the Import screen may name by path, with why it may. */
export function importFolders(workspace: string): ImportFolder[] {
  const examples = exampleRunsFolder();
  return [
    { path: workspace, source: 'workspace' },
    ...(examples ? [{ path: examples, source: 'examples' as const }] : []),
    ...readAdded(workspace).map((path) => ({ path, source: 'settings' as const })),
  ];
}

/** The paths of `importFolders`, for the server's path check (read on every request). */
export function importFolderRoots(workspace: string): string[] {
  try {
    return importFolders(workspace).map((folder) => folder.path);
  } catch {
    // A broken file must not lock the user out of the workspace itself.
    return [workspace];
  }
}

/** Adds `path` (an existing folder, absolute) to the user's import folders. */
export function addImportFolder(workspace: string, path: string): ImportFolder[] {
  if (!isAbsolute(path)) throw new EngineError('bad_request', `${path} is not an absolute path.`);
  if (!existsSync(path)) throw new EngineError('bad_request', `${path} does not exist.`);
  if (!statSync(path).isDirectory())
    throw new EngineError('bad_request', `${path} is not a folder; add the folder that holds it.`);
  const real = realpathSync(path);
  const added = readAdded(workspace);
  if (!added.includes(real)) writeAdded(workspace, [...added, real]);
  return importFolders(workspace);
}

/** Removes `path` from the user's import folders (the workspace and examples stay). */
export function removeImportFolder(workspace: string, path: string): ImportFolder[] {
  const added = readAdded(workspace);
  if (!added.includes(path))
    throw new EngineError('not_found', `${path} is not one of the folders added in Settings.`);
  writeAdded(
    workspace,
    added.filter((folder) => folder !== path),
  );
  return importFolders(workspace);
}
