/**
 * The report tables by name: each is a pure function from analysis rows (rows.ts) to a
 * ReportTable, so the window, `cuelab report` and the tests all show the same numbers.
 */
import {
  POOLED,
  type JudgeRepRow,
  type ReportRow,
  type ReportTable,
  type TableName,
} from '../analysis';
import { type Store, databaseRevision } from '../store';
import { studyHeader, studyRows } from './rows';
import { holdsStudyRows } from './row-cache';
import { ablationTable, effortTable, placementTable, POOLED_MEAN_DATASET } from './tables-effect';
import { accuracyTable, flipsTable, severityTable } from './tables-paired';
import { cardAt, cardTable } from './tables-card';
import { judgeCosts } from '../store/faces/studies';
import { nativeRowsStamp } from '../store/faces/reps';
import { DEFAULT_CARD_TOLERANCE_PP } from '../../../shared/card-tolerance';
import { mitigationsTable } from './tables-mitigations';
import { regressionTable } from './tables-regression';
import { agreementReportTable, mechanismValidationReport } from '../metajudge';
import { studyGradedTable } from './tables-graded';
import { mechanismMixTable } from './tables-mechanisms';
import { tableOfRevision, tableOfRows } from './table-cache';
import {
  outdatedTable,
  persistTable,
  persistedTable,
  studyTablesRef,
  type PersistedRef,
  type TablesCoverage,
} from './persisted-tables';

export { ablationTable, effortTable, placementTable } from './tables-effect';
export { flipsTable } from './tables-paired';
export { mitigationsTable } from './tables-mitigations';
export { gradedTable } from './tables-graded';

/**
 * A table's builder (its row schema and description are in src/shared/report-tables.ts). Row
 * tables are pure over analysis rows; label tables read the study's flips and mechanism labels.
 * `pooled` tells the row the table pools, beside the code that wrote its `all` cell, so the
 * window gets a typed mark instead of matching cell text.
 */
export type TableDefinition = { readonly pooled: (row: ReportRow) => boolean } & (
  | { readonly build: (rows: readonly JudgeRepRow[]) => ReportTable }
  | { readonly fromStore: (store: Store, studyId: string) => ReportTable }
);

/** The `all` scope row: pooled over judges and datasets. */
const allScope = (row: ReportRow) => row.scope === POOLED;
/** An effect pooled over datasets (the flip rate's `all`, the ceiling's unweighted mean). */
const datasetsPooled = (row: ReportRow) =>
  row.dataset === POOLED || row.dataset === POOLED_MEAN_DATASET;

/** Every table, keyed by name. */
export const TABLES: Readonly<Record<TableName, TableDefinition>> = {
  flips: { build: flipsTable, pooled: allScope },
  card: { build: (rows) => cardTable(rows), pooled: () => false },
  severity: { build: severityTable, pooled: allScope },
  accuracy: { build: accuracyTable, pooled: allScope },
  ablation: { build: ablationTable, pooled: datasetsPooled },
  placement: { build: placementTable, pooled: datasetsPooled },
  effort: { build: effortTable, pooled: (row) => row.turns === POOLED },
  mitigations: { build: mitigationsTable, pooled: allScope },
  regression: { build: regressionTable, pooled: () => false },
  graded: { fromStore: studyGradedTable, pooled: allScope },
  mechanisms: {
    fromStore: (store, studyId) => mechanismMixTable(store, studyId, 'harmful'),
    pooled: (row) => row.judge === POOLED,
  },
  'mechanisms-helpful': {
    fromStore: (store, studyId) => mechanismMixTable(store, studyId, 'helpful'),
    pooled: (row) => row.judge === POOLED,
  },
  'mechanism-validation': {
    fromStore: (store, studyId) =>
      withName(mechanismValidationReport(store, studyId), 'mechanism-validation'),
    pooled: () => false,
  },
  agreement: {
    fromStore: (store, studyId) =>
      withName(agreementReportTable(store, studyId, { kind: 'harmful' }), 'agreement'),
    pooled: (row) => row.dataset === POOLED,
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

export { isTableName } from '../../../shared/report-tables';

/** How a table is read: the report card's tolerance (percentage points, default 0). */
export interface ReportTableOptions {
  readonly tolerancePp?: number;
}

/**
 * One table of a stored study, built once per study revision (table-cache.ts): row tables over
 * the cached rows, store tables again only after a write to the workspace. The report card is
 * then read at `options.tolerancePp`, with each judge's cost from the store.
 */
export function reportTable(
  store: Store,
  studyId: string,
  name: TableName,
  options: ReportTableOptions = {},
): ReportTable {
  const table = builtTable(store, studyId, name);
  if (name !== 'card') return table;
  const tolerancePp = options.tolerancePp ?? DEFAULT_CARD_TOLERANCE_PP;
  return cardAt(table, tolerancePp, studyJudgeCosts(store, studyId));
}

/**
 * The table of a native study as persisted under the study's current key, without reading a
 * rep; undefined when it is not (an imported study, a table never drawn, rows or labels moved
 * since) and for the report card, whose judges' costs sum every rep (hundreds of ms at the
 * paper's scale). What the engine's thread serves itself: the cost is the key's few index
 * reads and, once per key, reading the study's file of tables.
 */
export function persistedReportTable(
  store: Store,
  studyId: string,
  name: TableName,
): ReportTable | undefined {
  if (name === 'card') return undefined;
  const header = studyHeader(store, studyId);
  if (header.origin !== 'native') return undefined;
  const part = 'fromStore' in TABLES[name] ? 'store' : 'rows';
  const table = persistedTable(store, studyTablesRef(store, studyId, part), name);
  if (!table) return undefined;
  return { ...table, study: { id: header.id, name: header.name, origin: header.origin } };
}

/** A persisted table that is not the study's current one, with what it was drawn from. */
export interface OutdatedReportTable {
  readonly table: ReportTable;
  readonly coverage: TablesCoverage;
  /** The study's done reps now. */
  readonly studyReps: number;
}

/**
 * The table of a native study as persisted under an older key of its rows or labels (reps
 * landed after it was drawn: a run interrupted by quitting), by this engine version; undefined
 * when it is current, never drawn, an older engine's, or the report card (its costs sum every
 * rep). Reads no rep: what a window that accepts an out-of-date table is shown while the
 * current one is drawn. Ask `persistedReportTable` first.
 */
export function outdatedReportTable(
  store: Store,
  studyId: string,
  name: TableName,
): OutdatedReportTable | undefined {
  if (name === 'card') return undefined;
  const header = studyHeader(store, studyId);
  if (header.origin !== 'native') return undefined;
  const part = 'fromStore' in TABLES[name] ? 'store' : 'rows';
  const ref = studyTablesRef(store, studyId, part);
  const found = outdatedTable(store, ref, name);
  if (!found) return undefined;
  return {
    table: { ...found.table, study: { id: header.id, name: header.name, origin: header.origin } },
    coverage: found.coverage,
    studyReps: ref.reps,
  };
}

/** Each study's judge costs, kept while its rows stamp stays (they sum every rep). */
const costsHeld = new WeakMap<Store, Map<string, { stamp: string; costs: Map<string, number> }>>();

function studyJudgeCosts(store: Store, studyId: string): Map<string, number> {
  let studies = costsHeld.get(store);
  if (!studies) {
    studies = new Map();
    costsHeld.set(store, studies);
  }
  const stamp = nativeRowsStamp(store, studyId);
  const held = studies.get(studyId);
  if (held?.stamp === stamp) return held.costs;
  const costs = judgeCosts(store, studyId);
  studies.set(studyId, { stamp, costs });
  return costs;
}

function builtTable(store: Store, studyId: string, name: TableName): ReportTable {
  const header = studyHeader(store, studyId);
  const definition = TABLES[name];
  const native = header.origin === 'native';
  const table =
    'fromStore' in definition
      ? tableOfRevision(store, studyId, name, databaseRevision(store), () =>
          native
            ? persistedOrBuilt(store, studyTablesRef(store, studyId, 'store'), name, () =>
                definition.fromStore(store, studyId),
              )
            : definition.fromStore(store, studyId),
        )
      : native
        ? nativeRowTable(store, studyId, name, definition.build)
        : tableOfRows(studyRows(store, studyId), name, definition.build);
  return { ...table, study: { id: header.id, name: header.name, origin: header.origin } };
}

/**
 * A native study's row table: from memory when its rows are held, else as persisted
 * for the study's current rows (persisted-tables.ts), else built and persisted. The key is taken
 * before the rows are read, so a rep landing in between can only make the key older than the
 * table, and an older key is never asked for again.
 */
function nativeRowTable(
  store: Store,
  studyId: string,
  name: TableName,
  build: (rows: readonly JudgeRepRow[]) => ReportTable,
): ReportTable {
  const ref = studyTablesRef(store, studyId, 'rows');
  if (!holdsStudyRows(store, studyId)) {
    const persisted = persistedTable(store, ref, name);
    if (persisted) return persisted;
  }
  return tableOfRows(studyRows(store, studyId), name, build, (table) =>
    persistTable(store, ref, name, table),
  );
}

/** The table as persisted under `ref`, else built and persisted. */
function persistedOrBuilt(
  store: Store,
  ref: PersistedRef,
  name: TableName,
  build: () => ReportTable,
): ReportTable {
  const persisted = persistedTable(store, ref, name);
  if (persisted) return persisted;
  const table = build();
  persistTable(store, ref, name, table);
  return table;
}
