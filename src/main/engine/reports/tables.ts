/**
 * The report tables by name: each is a pure function from analysis rows (rows.ts) to a
 * ReportTable, so the window, `cuelab report` and the tests all show the same numbers.
 */
import { type JudgeRepRow, type ReportTable, type TableName, TABLE_NAMES } from '../analysis';
import { type Store, databaseRevision } from '../store';
import { studyHeader, studyRows } from './rows';
import { ablationTable, effortTable, placementTable } from './tables-effect';
import { accuracyTable, flipsTable, mitigationsTable, severityTable } from './tables-paired';
import { agreementReportTable, mechanismValidationReport } from '../metajudge';
import { studyGradedTable } from './tables-graded';
import { mechanismMixTable } from './tables-mechanisms';
import { tableOfRevision, tableOfRows } from './table-cache';

export { ablationTable, effortTable, placementTable } from './tables-effect';
export { accuracyTable, flipsTable, mitigationsTable, severityTable } from './tables-paired';
export { gradedTable } from './tables-graded';

/** A table's builder and its one-line description (for `--help`). Row tables are pure over
 * analysis rows; label tables read the study's flips and mechanism labels from the store. */
export type TableDefinition =
  | { readonly build: (rows: readonly JudgeRepRow[]) => ReportTable; readonly summary: string }
  | {
      readonly fromStore: (store: Store, studyId: string) => ReportTable;
      readonly summary: string;
    };

/** Every table, keyed by name. */
export const TABLES: Readonly<Record<TableName, TableDefinition>> = {
  flips: {
    build: flipsTable,
    summary: 'harmful / helpful flips per judge × dataset with 95% CIs (Table 6 layout)',
  },
  severity: {
    build: severityTable,
    summary: 'severity vs leniency harmful flip rates (App. D)',
  },
  accuracy: {
    build: accuracyTable,
    summary: 'accuracy before, adversarial, untargeted (Table 5)',
  },
  ablation: {
    build: ablationTable,
    summary: '% of taxonomy ceiling closed per cue condition (Tables 2–4); binary: HF %',
  },
  placement: {
    build: placementTable,
    summary: 'the ablation metric per cue placement (Table 8)',
  },
  effort: {
    build: effortTable,
    summary: 'harmful flip rate by turns taken, hidden bins, Pearson r (Fig. 3, App. L)',
  },
  mitigations: {
    build: mitigationsTable,
    summary: 'harmful / helpful flip rates before → after each mitigation, McNemar p (Table 1)',
  },
  graded: {
    fromStore: studyGradedTable,
    summary:
      'graded 1–100 flips: cued scores ≥ gradedFlipThreshold points from the uncued mean (App. G)',
  },
  mechanisms: {
    fromStore: (store, studyId) => mechanismMixTable(store, studyId, 'harmful'),
    summary:
      'harmful-flip mechanism mixture per judge (Fig. 5, Fig. 17); run cuelab classify first',
  },
  'mechanisms-helpful': {
    fromStore: (store, studyId) => mechanismMixTable(store, studyId, 'helpful'),
    summary: 'helpful-flip mechanisms (Fig. 15)',
  },
  'mechanism-validation': {
    fromStore: (store, studyId) =>
      withName(mechanismValidationReport(store, studyId), 'mechanism-validation'),
    summary: 'diff classifier vs the synthetic judge’s true mechanism: confusion matrix, accuracy',
  },
  agreement: {
    fromStore: (store, studyId) =>
      withName(agreementReportTable(store, studyId, { kind: 'harmful' }), 'agreement'),
    summary: 'annotator and classifier agreement: Cohen’s and Fleiss’ κ, unanimity (Table 10)',
  },
};

/** A metajudge table (same shape, read-only arrays) under its report name. */
function withName(
  table: {
    title: string;
    columns: readonly ReportTable['columns'][number][];
    rows: readonly ReportTable['rows'][number][];
    notes: readonly string[];
    simulated: boolean;
    reps: number;
  },
  name: TableName,
): ReportTable {
  return {
    name,
    title: table.title,
    columns: [...table.columns],
    rows: [...table.rows],
    notes: [...table.notes],
    simulated: table.simulated,
    reps: table.reps,
  };
}

/** True for a known table name. */
export function isTableName(name: string): name is TableName {
  return (TABLE_NAMES as readonly string[]).includes(name);
}

/**
 * One table of a stored study, built once per study revision (table-cache.ts): row tables over
 * the cached rows, store tables again only after a write to the workspace.
 */
export function reportTable(store: Store, studyId: string, name: TableName): ReportTable {
  const header = studyHeader(store, studyId);
  const definition = TABLES[name];
  const table =
    'fromStore' in definition
      ? tableOfRevision(store, studyId, name, databaseRevision(store), () =>
          definition.fromStore(store, studyId),
        )
      : tableOfRows(studyRows(store, studyId), name, definition.build);
  return { ...table, study: { id: header.id, name: header.name, origin: header.origin } };
}
