/**
 * The values the workbench's filters can take in a study (judges, datasets, conditions, and the
 * mechanisms its labels name), kept on disk beside the workspace database under
 * `cache/workbench-facets/`, keyed by what they read (the study's rows stamp and the labels'
 * write counter) and the engine version. At the paper's 70,560 reps, finding them reads every
 * label with its rep's job, 120–220 ms on a fresh connection: the first page the reads worker
 * served after a start paid it. The tables drawn when a study stops (tables-current.ts) leave
 * them here, so a first page reads one small file. A derived cache: a missing, stale or
 * malformed file only means "find them".
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { type Store } from '../store';
import { labelsRevision, nativeRowsStamp, repFacets, repMechanismFacet } from '../store/faces/reps';
import { engineVersion } from '../version';
import { writeCacheFile } from '../workspace';

/** Bumped when the facets' shape or what they read changes without a version change. */
const FORMAT = 1;

/** Label sources in the order the workbench shows them (never a human's: annotation is blind). */
export const MECHANISM_SOURCES = ['ensemble', 'diff', 'truth'];

/** A facet's values: names the study holds, so at most its judges, items or conditions. */
const values = z.array(z.string().max(4_096)).max(100_000);

const facetsSchema = z.object({
  judges: values,
  datasets: values,
  conditions: values,
  mechanisms: values,
});

/** What a study's filters can take, as `queryReps` answers them. */
export type StudyFacets = z.output<typeof facetsSchema>;

const fileSchema = z.object({ key: z.string(), facets: facetsSchema });

/** The stamp a study's facets are remembered under while it stays the same (cheap to take). */
export function facetsStamp(store: Store, studyId: string): string {
  return `${nativeRowsStamp(store, studyId)}\u0000${String(labelsRevision(store))}`;
}

function fileOf(store: Store, studyId: string): string {
  const name = createHash('sha256').update(studyId).digest('hex').slice(0, 32);
  return join(dirname(store.path), 'cache', 'workbench-facets', `${name}.json`);
}

function keyOf(studyId: string, stamp: string): string {
  return createHash('sha256')
    .update(`${String(FORMAT)}\u0000${engineVersion}\u0000${studyId}\u0000${stamp}`)
    .digest('hex');
}

function readFacets(file: string, key: string): StudyFacets | undefined {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success && parsed.data.key === key ? parsed.data.facets : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The study's facets under `stamp` (taken by the caller, `facetsStamp`): from the persisted file
 * when it is current, else found in the store and written for the next reader.
 */
export function studyFacets(
  store: Store,
  studyId: string,
  stamp = facetsStamp(store, studyId),
): StudyFacets {
  const find = () => ({
    ...repFacets(store, studyId),
    mechanisms: repMechanismFacet(store, studyId, MECHANISM_SOURCES),
  });
  // An in-memory database has no folder to keep anything in.
  if (store.path === '' || store.path === ':memory:') return find();
  const file = fileOf(store, studyId);
  const key = keyOf(studyId, stamp);
  const held = readFacets(file, key);
  if (held) return held;
  const facets = find();
  // A read-only or full workspace still answers; only the next first page finds them again.
  writeCacheFile(file, JSON.stringify({ key, facets }));
  return facets;
}
