/**
 * LabApi handlers comparing two studies (lab-api/compare.ts): the tables the Compare view shows
 * and the text `cuelab compare` prints, from the same engine code.
 */
import { comparisonTables, formatComparison } from '../reports';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The compare handlers. */
export function compareHandlers(
  context: Pick<HandlerContext, 'store'>,
): DomainHandlers<'compareStudies' | 'formatComparison'> {
  const { store } = context;
  return {
    compareStudies: ({ studyA, studyB }) => {
      const tables = comparisonTables(store, studyA, studyB);
      return {
        ...tables,
        rates: { ...tables.rates, rows: [...tables.rates.rows] },
        changedItems: { ...tables.changedItems, rows: [...tables.changedItems.rows] },
      };
    },
    formatComparison: ({ studyA, studyB, format, part }) => {
      const tables = comparisonTables(store, studyA, studyB);
      const suffix = format === 'csv' && part === 'items' ? '-items' : '';
      const fileName = `compare-${tables.studyA.id.slice(0, 8)}-${tables.studyB.id.slice(0, 8)}${suffix}.${format}`;
      return { text: formatComparison(tables, format, part), fileName };
    },
  };
}
