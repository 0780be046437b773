/**
 * A study's whole flip list (findFlippedReps without a scope) kept on disk beside the workspace
 * database, under `cache/flip-lists/`, keyed by everything the flips and the label tables read
 * (store/analysis-rows.ts `labelTablesStamp`) and the engine version. Finding every flip of a
 * study reads every cued rep with its majority, gold and twins: 1–2.5 s at the paper's 70,560
 * reps. The label tables drawn when a study stops find them once and leave them here, so the
 * workbench's first "flipped" filter (and every table drawn after the engine starts) reads one
 * file instead. A derived cache: a missing, stale or unreadable file only means "find them".
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Store } from '../store';
import { labelTablesStamp } from '../store/faces/reps';
import { engineVersion } from '../version';
import { writeCacheFile } from '../workspace';
import type { FlippedRep } from './flipped';

/** Bumped when FlippedRep or the flip rule changes without a version change (development). */
const FORMAT = 1;

/** The folder of persisted flip lists: `cache/flip-lists` beside the workspace database. */
function flipListsDir(databasePath: string): string {
  return join(dirname(databasePath), 'cache', 'flip-lists');
}

/** The whole list, or only each flip's rep and kind (what the workbench's filter needs). */
type ListPart = 'flips' | 'kinds';

function fileOf(store: Store, studyId: string, part: ListPart): string {
  const name = createHash('sha256').update(studyId).digest('hex').slice(0, 32);
  return join(flipListsDir(store.path), `${name}.${part}.json`);
}

function keyOf(store: Store, studyId: string): string {
  // Hashed: the stamp holds the study's whole spec.
  return createHash('sha256')
    .update(
      `${FORMAT}\u0000${engineVersion}\u0000${studyId}\u0000${labelTablesStamp(store, studyId)}`,
    )
    .digest('hex');
}

function readList<T>(file: string, key: string): T[] | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { key: held, flips } = parsed as { key?: unknown; flips?: unknown };
    // Written by this module under a key holding the engine version and FORMAT, so a file
    // whose key matches has the shape this code writes.
    return held === key && Array.isArray(flips) ? (flips as T[]) : undefined;
  } catch {
    return undefined;
  }
}

function writeList(file: string, key: string, flips: readonly unknown[]): void {
  // A read-only or full workspace still finds its flips; only the next reader finds them again.
  writeCacheFile(file, JSON.stringify({ key, flips }));
}

/** One flip as the workbench's filter needs it: its rep and kind. */
export type FlipKindEntry = [repId: string, kind: FlippedRep['kind']];

/**
 * The study's flips from its persisted list when that list is current, else from `find`, then
 * written for the next reader (this engine or the next one on the workspace).
 */
export function persistedFlips(
  store: Store,
  studyId: string,
  find: () => FlippedRep[],
): FlippedRep[] {
  // An in-memory database has no folder to keep anything in.
  if (store.path === '' || store.path === ':memory:') return find();
  const key = keyOf(store, studyId);
  const held = readList<FlippedRep>(fileOf(store, studyId, 'flips'), key);
  if (held) return held;
  const flips = find();
  writeList(fileOf(store, studyId, 'flips'), key, flips);
  writeList(
    fileOf(store, studyId, 'kinds'),
    key,
    flips.map((flip): FlipKindEntry => [flip.repId, flip.kind]),
  );
  return flips;
}

/**
 * Each flip's rep and kind, from the small persisted list when it is current (a tenth of the
 * whole list's size), else from the whole list (persistedFlips, which writes both).
 */
export function persistedFlipKinds(
  store: Store,
  studyId: string,
  find: () => FlippedRep[],
): FlipKindEntry[] {
  const whole = () =>
    persistedFlips(store, studyId, find).map((flip): FlipKindEntry => [flip.repId, flip.kind]);
  if (store.path === '' || store.path === ':memory:') return whole();
  return readList<FlipKindEntry>(fileOf(store, studyId, 'kinds'), keyOf(store, studyId)) ?? whole();
}
