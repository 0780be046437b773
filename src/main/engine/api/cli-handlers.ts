/**
 * LabApi handlers behind the command line's own needs (lab-api-cli.ts): resolving what a
 * person typed to a study, and printing a report table exactly as `cuelab report` shows it.
 */
import { EngineError } from '../errors';
import { formatTable, isTableName, reportTable } from '../reports';
import { resolveStudyId } from '../runner';
import type { Store } from '../store';
import type { LabHandlers } from './handlers';

/** The command-line handlers over one store. */
export function cliHandlers(store: Store): Pick<LabHandlers, 'resolveStudy' | 'formatReport'> {
  return {
    resolveStudy: ({ reference }) => ({ studyId: resolveStudyId(store, reference) }),
    formatReport: ({ studyId, table, format }) => {
      if (!isTableName(table))
        throw new EngineError('bad_request', `There is no report table "${table}".`);
      return { text: formatTable(reportTable(store, studyId, table), format) };
    },
  };
}
