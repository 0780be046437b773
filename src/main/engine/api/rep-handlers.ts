/**
 * LabApi handlers for a study's reps (lab-api/reps.ts): the reps behind a chart cell, the
 * results workbench's page (reports/workbench-page.ts, answered by the reads worker), and a
 * cued rep beside its twin.
 */
import { alignCalls, loadRunRecord } from '../metajudge';
import { listReps } from '../store/faces/reps';
import type { DomainHandlers, HandlerContext } from './handlers';
import { runView } from './mechanism-handlers';

/** The rep handlers. */
export function repHandlers(
  context: Pick<HandlerContext, 'store' | 'workers'>,
): DomainHandlers<'listReps' | 'queryReps' | 'loadRepPair'> {
  const { store, workers } = context;
  return {
    listReps: (request) => listReps(store, request),
    // A page can read for hundreds of milliseconds at paper scale (a study's flips and facets
    // recomputed after reps land): the reads worker answers it (reports/workbench-page.ts).
    queryReps: (request) => workers.run('reads', 'queryReps', request),
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
