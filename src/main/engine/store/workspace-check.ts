/**
 * A workspace database checks itself on open, so a damaged file is named as such instead of
 * failing later inside some report, or being silently replaced by an empty one:
 *
 * - Beside the database lives a marker file (`cuelab.sqlite.marker.json`) recording the
 *   database's identity: a random number CueLab writes into the file's own header
 *   (`PRAGMA application_id`) when it first opens it. Where the marker says a database was,
 *   a missing or 0-byte file, or one with another identity, is refused: re-creating it would
 *   show an empty workspace where the user's studies were.
 * - `PRAGMA quick_check` (every page's structure, not index contents) and a scan of every
 *   `*_json` column for values that are not JSON run on files up to `quickCheckMaxBytes`; both
 *   read the whole file, so larger workspaces skip them at open and rely on the checks made as
 *   rows are read (json-column.ts, store-damage.ts name the table, row and field then).
 * - A sample of stored texts (text-damage.ts) is read back within its output limit, whatever
 *   the file's size, so a damaged or oversized text is named before a replay meets it.
 */
import type Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { EngineError } from '../errors';
import { malformedJsonError } from './store-damage';
import { setAsideStudyDamage } from './study-damage';
import { checkSampledTexts } from './text-damage';
import { sqliteCode } from './write-errors';

/** Largest database file checked with quick_check on every open (128 MiB: about a second). */
export const quickCheckMaxBytes = 128 * 1024 * 1024;

const markerSchema = z.object({
  format: z.literal('cuelab-workspace-marker'),
  /** The database's `application_id`: which file this workspace's data is in. */
  applicationId: z.number().int(),
  createdAt: z.string(),
});

/** The marker file of database `path`. */
export function markerPath(path: string): string {
  return `${path}.marker.json`;
}

function readMarker(path: string): z.output<typeof markerSchema> | undefined {
  const file = markerPath(path);
  if (!existsSync(file)) return undefined;
  let parsed;
  try {
    parsed = markerSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')) as unknown);
  } catch (error) {
    throw new EngineError(
      'store_unreadable',
      `The workspace marker ${file} is damaged (${(error as Error).message}). If the database beside it is the right one, delete the marker; CueLab writes a new one.`,
    );
  }
  if (!parsed.success)
    throw new EngineError(
      'store_unreadable',
      `The workspace marker ${file} is damaged. If the database beside it is the right one, delete the marker; CueLab writes a new one.`,
    );
  return parsed.data;
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * Before the database is opened for writing: refuses a missing or empty file where the marker
 * says this workspace's database was.
 */
export function refuseLostDatabase(path: string): void {
  const marker = readMarker(path);
  if (!marker) return;
  const size = fileSize(path);
  if (size !== undefined && size > 0) return;
  throw new EngineError(
    'store_unreadable',
    `The workspace database ${path} is ${size === undefined ? 'missing' : 'empty (0 bytes)'}, but this workspace had one (${markerPath(path)} records it). ` +
      'CueLab will not start an empty workspace in its place: restore the file from a backup, or, to really start afresh, delete the marker too.',
  );
}

/** What quick_check reports (at most 5 lines), or SQLite's error when the check cannot run. */
function integrityProblems(db: Database.Database): string[] {
  try {
    const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
    return rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
  } catch (error) {
    if (!sqliteCode(error)?.startsWith('SQLITE_CORRUPT')) throw error;
    return [(error as Error).message];
  }
}

/**
 * After the database is open: its identity matches the marker (or is given one and recorded),
 * and, up to `quickCheckMaxBytes`, its pages pass quick_check.
 */
export function checkOpenedDatabase(db: Database.Database, path: string): void {
  const size = fileSize(path) ?? 0;
  if (size > 0 && size <= quickCheckMaxBytes) {
    const found = integrityProblems(db);
    if (found.length > 0)
      throw new EngineError(
        'store_unreadable',
        `The workspace database ${path} is damaged: SQLite's integrity check found ${found.join('; ')}. ` +
          'Restore it from a backup; CueLab left it as it is.',
      );
    // A study's damaged row marks that study (study-damage.ts); any other refuses the workspace.
    const place = setAsideStudyDamage(db);
    if (place) throw malformedJsonError(place);
  }
  // Whatever the file's size: a sample of stored texts, each read within its limit.
  if (size > 0) checkSampledTexts(db);
  const marker = readMarker(path);
  let applicationId = db.pragma('application_id', { simple: true }) as number;
  if (marker && applicationId !== marker.applicationId)
    throw new EngineError(
      'store_unreadable',
      `The workspace database ${path} is not the one this workspace had (its identity is ${applicationId}, ${markerPath(path)} records ${marker.applicationId}). ` +
        'Put the right file back, or, if this file is the one you want, delete the marker.',
    );
  if (marker) return;
  if (applicationId === 0) {
    // A positive 31-bit id: random, so another workspace's file is told apart.
    applicationId = randomInt(1, 2 ** 31 - 1);
    db.pragma(`application_id = ${applicationId}`);
  }
  const file = markerPath(path);
  const marked = {
    format: 'cuelab-workspace-marker',
    applicationId,
    createdAt: new Date().toISOString(),
  };
  // Written aside and renamed, so a crash never leaves half a marker.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(marked, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
