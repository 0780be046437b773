/**
 * One page of the results workbench: a study's reps from SQL (store/rep-query.ts), each with
 * whether it flipped and its mechanism (the meta-judge's decision, metajudge/flipped.ts, applied
 * as a set of rep ids), and the values its filters can take. It runs in the engine's reads
 * worker (workers/jobs.ts `queryReps`): at paper scale a page that recomputes the study's flips
 * or facets reads for hundreds of milliseconds, which the thread answering requests must not.
 */
import type { z } from 'zod';
import type { LabResponse, labMethods } from '../../../shared/lab-api';
import { EngineError } from '../errors';
import { findFlippedReps, studyFlipKinds } from '../metajudge';
import { type Store } from '../store';
import { labelsForRep } from '../store/faces/labels';
import {
  labelTablesStamp,
  queryStudyReps,
  repMechanisms,
  unindexedRepCount,
} from '../store/faces/reps';
import { readStudyHeader } from '../store/faces/studies';
import { facetsStamp, MECHANISM_SOURCES, studyFacets, type StudyFacets } from './workbench-facets';

type FlipFacts = Map<string, { kind: 'harmful' | 'helpful'; mechanism: string | null }>;

function flipFacts(store: Store, studyId: string, itemId?: string): FlipFacts {
  if (itemId === undefined) return studyFlipFacts(store, studyId);
  const flips: FlipFacts = new Map();
  for (const flip of findFlippedReps(store, studyId, { itemId })) {
    const labels: Record<string, string> = Object.fromEntries(
      labelsForRep(store, flip.repId).map((label) => [label.source, label.label]),
    );
    const source = MECHANISM_SOURCES.find((name) => labels[name] !== undefined);
    flips.set(flip.repId, {
      kind: flip.kind,
      mechanism: source === undefined ? null : (labels[source] ?? null),
    });
  }
  return flips;
}

/**
 * Every flip of the study with its mechanism: the flip list (persisted beside the workspace
 * once found, metajudge/flip-list-cache.ts) and the labels by source, read by index.
 */
function studyFlipFacts(store: Store, studyId: string): FlipFacts {
  const flips = studyFlipKinds(store, studyId);
  const mechanisms = repMechanisms(
    store,
    flips.map(([repId]) => repId),
    MECHANISM_SOURCES,
  );
  return new Map(
    flips.map(([repId, kind]) => [repId, { kind, mechanism: mechanisms.get(repId) ?? null }]),
  );
}

/**
 * Values a workbench page needs that depend on the whole study, remembered per study while
 * `stamp` (its write counters, analysis-rows.ts) stays the same: paging, sorting and searching
 * then cost only the page's query, not every flip of the study and three DISTINCT scans.
 */
class StudyMemo<Value> {
  private readonly entries = new Map<string, { stamp: string; value: Value }>();
  constructor(
    private readonly stampOf: (studyId: string) => string,
    private readonly compute: (studyId: string, stamp: string) => Value,
  ) {}

  get(studyId: string): Value {
    const stamp = this.stampOf(studyId);
    const held = this.entries.get(studyId);
    if (held?.stamp === stamp) return held.value;
    const value = this.compute(studyId, stamp);
    this.entries.delete(studyId);
    // A few studies at a time: a person compares two or three, and a stale one is recomputed.
    if (this.entries.size >= 4) this.entries.delete(this.entries.keys().next().value ?? '');
    this.entries.set(studyId, { stamp, value });
    return value;
  }
}

function searchNote(store: Store, studyId: string, search: string | undefined): string | null {
  if (!search?.trim()) return null;
  const unindexed = unindexedRepCount(store, studyId);
  return unindexed === 0
    ? null
    : `The search index is still being built: ${String(unindexed)} reps of this study are not ` +
        'searched yet. Search again in a moment.';
}

/** The memos of one connection's pages. */
interface PageMemos {
  readonly flips: StudyMemo<FlipFacts>;
  readonly facets: StudyMemo<StudyFacets>;
}

const memosByStore = new WeakMap<Store, PageMemos>();

function memosOf(store: Store): PageMemos {
  let memos = memosByStore.get(store);
  if (!memos) {
    memos = {
      flips: new StudyMemo(
        (studyId) => labelTablesStamp(store, studyId),
        (studyId) => flipFacts(store, studyId),
      ),
      // Persisted when the study's tables were drawn (workbench-facets.ts): a first page after a
      // start reads a file.
      facets: new StudyMemo(
        (studyId) => facetsStamp(store, studyId),
        (studyId, stamp) => studyFacets(store, studyId, stamp),
      ),
    };
    memosByStore.set(store, memos);
  }
  return memos;
}

/** What `queryReps` asks, as its contract parsed it. */
export type WorkbenchQuery = z.output<(typeof labMethods)['queryReps']['request']>;

/** One page of a study's reps, as `queryReps` answers it. */
export function workbenchPage(
  store: Store,
  { studyId, flipped, mechanism, ...filters }: WorkbenchQuery,
): LabResponse<'queryReps'> {
  const header = readStudyHeader(store, studyId);
  if (!header) throw new EngineError('not_found', `There is no study "${studyId}".`);
  const simulated = header.simulated === 1;
  const empty = { judges: [], datasets: [], conditions: [], mechanisms: [] };
  if (header.origin === 'imported') {
    const note =
      'This study was imported from result records: it has no stored transcripts to list or ' +
      'search; its tables are computed from the records.';
    return { rows: [], hasMore: false, facets: empty, note, simulated };
  }
  const memos = memosOf(store);
  const narrowed = (flipped !== undefined && flipped !== 'no') || mechanism !== undefined;
  const whole = narrowed || flipped === 'no' ? memos.flips.get(studyId) : null;
  const kindMatches = (kind: string) =>
    flipped === undefined || flipped === 'no' || flipped === 'any' || kind === flipped;
  const chosen = [...(whole ?? [])]
    .filter(([, fact]) => kindMatches(fact.kind))
    .filter(([, fact]) => mechanism === undefined || fact.mechanism === mechanism)
    .map(([repId]) => repId);
  const page = queryStudyReps(store, {
    studyId,
    ...filters,
    ...(narrowed ? { onlyRepIds: chosen } : {}),
    ...(flipped === 'no' ? { exceptRepIds: [...(whole?.keys() ?? [])] } : {}),
  });
  // A plain page needs only its own reps' flips, found item by item (a flip and its twins
  // share an item): a few milliseconds per item instead of every flip of the study.
  const flips =
    whole ??
    new Map(
      [...new Set(page.rows.map((row) => row.itemId))].flatMap((itemId) => [
        ...flipFacts(store, studyId, itemId),
      ]),
    );
  return {
    rows: page.rows.map((row) => ({
      ...row,
      flip: flips.get(row.repId)?.kind ?? null,
      mechanism: flips.get(row.repId)?.mechanism ?? null,
    })),
    hasMore: page.hasMore,
    facets: memos.facets.get(studyId),
    note: searchNote(store, studyId, filters.search),
    simulated,
  };
}
