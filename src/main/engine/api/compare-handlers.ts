/**
 * LabApi handlers comparing two studies (lab-api/compare.ts): the tables the Compare view shows
 * and the text `cuelab compare` prints, from the same engine code. Both studies' rows and report
 * cards are read in the reports worker (beside its row cache), never on the engine's thread.
 */
import { studyComparisonSchema } from '../../../shared/lab-api/compare';
import { formatComparison } from '../reports';
import type { DomainHandlers, HandlerContext } from './handlers';
import { namedFailure } from './table-draws';

type CompareContext = Pick<HandlerContext, 'workers'>;

async function comparison(
  context: CompareContext,
  studyA: string,
  studyB: string,
  equivalenceMargin: number | undefined,
  tolerancePp: number | undefined,
) {
  try {
    return await context.workers.run('reports', 'compareTables', {
      studyA,
      studyB,
      equivalenceMargin: equivalenceMargin ?? null,
      ...(tolerancePp === undefined ? {} : { tolerancePp }),
    });
  } catch (error) {
    throw namedFailure(`Comparing study ${studyA} with study ${studyB}`, error);
  }
}

/** The compare handlers. */
export function compareHandlers(
  context: CompareContext,
): DomainHandlers<'compareStudies' | 'formatComparison'> {
  return {
    // Parsed with the contract's row schemas, so a drifted row fails here, not in the figure.
    compareStudies: async ({ studyA, studyB, equivalenceMargin, tolerancePp }) =>
      studyComparisonSchema.parse(
        await comparison(context, studyA, studyB, equivalenceMargin, tolerancePp),
      ),
    formatComparison: async ({ studyA, studyB, format, part, equivalenceMargin, tolerancePp }) => {
      const tables = await comparison(context, studyA, studyB, equivalenceMargin, tolerancePp);
      const suffix =
        part === 'cards' ? '-cards' : format === 'csv' && part === 'items' ? '-items' : '';
      const fileName = `compare-${tables.studyA.id.slice(0, 8)}-${tables.studyB.id.slice(0, 8)}${suffix}.${format}`;
      return { text: formatComparison(tables, format, part), fileName };
    },
  };
}
