/**
 * LabApi handlers for a study's reps (lab-api/reps.ts): the reps behind a chart cell, and the
 * results workbench, whose page comes from SQL
 * (store/rep-query.ts); which reps flipped, and their mechanism, is the meta-judge's decision
 * (metajudge/flipped.ts), applied as a set of rep ids.
 */
import { EngineError } from '../errors';
import { alignCalls, flipsWithLabels, loadRunRecord } from '../metajudge';
import { type Store } from '../store';
import { listReps, queryStudyReps, repFacets } from '../store/faces/reps';
import { readStudyHeader } from '../store/faces/studies';
import type { DomainHandlers, HandlerContext } from './handlers';
import { runView } from './mechanism-handlers';

/** Label sources in the order the workbench shows them (never a human's: annotation is blind). */
const MECHANISM_SOURCES = ['ensemble', 'diff', 'truth'];

function flipFacts(store: Store, studyId: string) {
  const flips = new Map<string, { kind: 'harmful' | 'helpful'; mechanism: string | null }>();
  for (const flip of flipsWithLabels(store, studyId)) {
    const source = MECHANISM_SOURCES.find((name) => flip.labels[name] !== undefined);
    flips.set(flip.repId, {
      kind: flip.kind,
      mechanism: source === undefined ? null : (flip.labels[source]?.label ?? null),
    });
  }
  return flips;
}

/** The rep handlers. */
export function repHandlers(
  context: Pick<HandlerContext, 'store'>,
): DomainHandlers<'listReps' | 'queryReps' | 'loadRepPair'> {
  const { store } = context;
  return {
    listReps: (request) => listReps(store, request),
    queryReps: ({ studyId, flipped, mechanism, ...filters }) => {
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
      const flips = flipFacts(store, studyId);
      const kindMatches = (kind: string) =>
        flipped === undefined || flipped === 'no' || flipped === 'any' || kind === flipped;
      const chosen = [...flips]
        .filter(([, fact]) => kindMatches(fact.kind))
        .filter(([, fact]) => mechanism === undefined || fact.mechanism === mechanism)
        .map(([repId]) => repId);
      const narrowed = (flipped !== undefined && flipped !== 'no') || mechanism !== undefined;
      const page = queryStudyReps(store, {
        studyId,
        ...filters,
        ...(narrowed ? { onlyRepIds: chosen } : {}),
        ...(flipped === 'no' ? { exceptRepIds: [...flips.keys()] } : {}),
      });
      const mechanisms = [...new Set([...flips.values()].map((fact) => fact.mechanism))]
        .filter((label): label is string => label !== null)
        .sort();
      return {
        rows: page.rows.map((row) => ({
          ...row,
          flip: flips.get(row.repId)?.kind ?? null,
          mechanism: flips.get(row.repId)?.mechanism ?? null,
        })),
        hasMore: page.hasMore,
        facets: { ...repFacets(store, studyId), mechanisms },
        note: null,
        simulated,
      };
    },
    loadRepPair: ({ repA, repB }) => {
      const a = loadRunRecord(store, repA);
      const b = repB === undefined ? null : loadRunRecord(store, repB);
      const alignment = alignCalls(a.calls, b?.calls ?? []).map((row) => ({
        a: row.baseline,
        b: row.cued,
      }));
      const divergence = alignment.findIndex((row) => row.a === null || row.b === null);
      return {
        a: runView(a),
        b: b === null ? null : runView(b),
        alignment: b === null ? [] : alignment,
        divergenceRow: b === null || divergence < 0 ? null : divergence,
      };
    },
  };
}
