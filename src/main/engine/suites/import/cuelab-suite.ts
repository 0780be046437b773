/**
 * CueLab's own suite files met by the run importer (a path typed on the Import screen, or a
 * file dropped on it): read with the very parser `cuelab suite import FILE` uses (`parseSuite`),
 * so the window shows the same `FILE:LINE: field: problem` errors the CLI prints.
 */
import { EngineError } from '../../errors';
import { parseSuite } from '../load';
import { readSource } from './files';
import type { SuiteItem, SuiteFile } from '../../../../shared/suite-format';

/** Whether `text` is meant as a CueLab suite: a JSON object with `items` (valid or not). */
export function looksLikeSuiteFile(path: string, text: string): boolean {
  if (!path.endsWith('.json') || !/^\s*\{/.test(text)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    // Broken JSON that starts like a suite is still one: its parse error is worth showing.
    return /^\s*\{\s*"(id|name|items)"\s*:/.test(text);
  }
  return typeof parsed === 'object' && parsed !== null && 'items' in parsed;
}

/** The suite files among `files` (relative to `root`), or none. */
export function suiteFilesIn(root: string, files: readonly string[]): string[] {
  return files.filter((path) => {
    if (!path.endsWith('.json')) return false;
    try {
      return looksLikeSuiteFile(path, readSource(root, path).text);
    } catch {
      return false;
    }
  });
}

/**
 * Reads one suite file; throws the parser's own errors (FILE:LINE) when it is not valid. `label`
 * names the file as the user knows it (the typed path, or the dropped file's name).
 */
export function readSuiteFile(root: string, path: string, label: string): SuiteFile {
  const file = readSource(root, path);
  return parseSuite(file.text, label);
}

/** Refuses a folder holding several suite files: which one is meant is the user's to say. */
export function oneSuiteFile(paths: string[]): string {
  if (paths.length > 1) {
    throw new EngineError(
      'bad_request',
      `The folder holds ${paths.length} CueLab suite files (${paths.join(', ')}); import one at a time.`,
    );
  }
  return paths[0]!;
}

/** A suite item's container limits as the Import screen lists them. */
export function itemLimits(item: SuiteItem, storageMb?: number): ItemLimits {
  const resources = item.environment.resources;
  return {
    ...(resources?.cpus !== undefined ? { cpus: resources.cpus } : {}),
    ...(resources?.memoryMb !== undefined ? { memoryMb: resources.memoryMb } : {}),
    ...(resources?.pids !== undefined ? { pids: resources.pids } : {}),
    network: item.environment.network ?? false,
    ...(storageMb !== undefined ? { storageMb } : {}),
  };
}

/** An item's limits: what it asks for (absent: the Docker backend's default). */
export interface ItemLimits {
  cpus?: number;
  memoryMb?: number;
  pids?: number;
  network: boolean;
  /** Asked for by the task; Docker here gives no disk quota. */
  storageMb?: number;
}
