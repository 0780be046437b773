/**
 * LabApi handlers comparing two studies (lab-api/compare.ts): the tables the Compare view shows
 * and the text `cuelab compare` prints, from the same engine code.
 */
import { studyComparisonSchema } from '../../../shared/lab-api/compare';
import { comparisonTables, formatComparison } from '../reports';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The compare handlers. */
export function compareHandlers(
  context: Pick<HandlerContext, 'store'>,
): DomainHandlers<'compareStudies' | 'formatComparison'> {
  const { store } = context;
  return {
    // Parsed with the contract's row schemas, so a drifted row fails here, not in the figure.
    compareStudies: ({ studyA, studyB, equivalenceMargin, tolerancePp }) =>
      studyComparisonSchema.parse(
        comparisonTables(store, studyA, studyB, equivalenceMargin ?? null, tolerancePp),
      ),
    formatComparison: ({ studyA, studyB, format, part, equivalenceMargin, tolerancePp }) => {
      const tables = comparisonTables(
        store,
        studyA,
        studyB,
        equivalenceMargin ?? null,
        tolerancePp,
      );
      const suffix =
        part === 'cards' ? '-cards' : format === 'csv' && part === 'items' ? '-items' : '';
      const fileName = `compare-${tables.studyA.id.slice(0, 8)}-${tables.studyB.id.slice(0, 8)}${suffix}.${format}`;
      return { text: formatComparison(tables, format, part), fileName };
    },
  };
}
