import { readFileSync } from 'node:fs';
import { EngineError } from '../errors';

/**
 * The text of a file a request names; not_found names it as the user knows it (`name`: their
 * own path, not the staged upload the engine reads).
 */
export function readNamedFile(path: string, name: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngineError('not_found', `Cannot read ${name}: ${(error as Error).message}.`);
  }
}
