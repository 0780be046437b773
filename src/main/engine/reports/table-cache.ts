/**
 * Built report tables kept per study revision, so asking again for a table of an
 * unchanged study costs a revision check, not the analysis. Row tables are keyed by the row
 * array the row cache hands out (a new array per revision, row-cache.ts); store tables by the
 * database's write revision (store/revision.ts), which any committed write moves.
 */
import type { JudgeRepRow, ReportTable, TableName } from '../analysis';
import type { Store } from '../store';

const byRows = new WeakMap<readonly JudgeRepRow[], Map<TableName, ReportTable>>();
const byRevision = new WeakMap<Store, Map<string, { revision: string; table: ReportTable }>>();

/** The table `build` makes from `rows`, built once per row array; `built` sees each new one. */
export function tableOfRows(
  rows: readonly JudgeRepRow[],
  name: TableName,
  build: (rows: readonly JudgeRepRow[]) => ReportTable,
  built?: (table: ReportTable) => void,
): ReportTable {
  let tables = byRows.get(rows);
  if (!tables) {
    tables = new Map();
    byRows.set(rows, tables);
  }
  const known = tables.get(name);
  if (known) return known;
  const table = build(rows);
  tables.set(name, table);
  built?.(table);
  return table;
}

/** The table `build` reads from the store, built once per database revision. */
export function tableOfRevision(
  store: Store,
  studyId: string,
  name: TableName,
  revision: string,
  build: () => ReportTable,
): ReportTable {
  let tables = byRevision.get(store);
  if (!tables) {
    tables = new Map();
    byRevision.set(store, tables);
  }
  const key = `${studyId}\u0000${name}`;
  const known = tables.get(key);
  if (known?.revision === revision) return known.table;
  const table = build();
  tables.set(key, { revision, table });
  return table;
}

/** Forgets every built table of the store (the bench's cold reads; tests). */
export function forgetTables(store: Store): void {
  byRevision.delete(store);
}
