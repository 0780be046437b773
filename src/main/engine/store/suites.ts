import type { SuiteSummary } from '../../../shared/lab-api';
import type { Store } from './database';

interface SuiteRow {
  id: string;
  name: string;
  description: string;
  origin: 'builtin' | 'imported';
  item_count: number;
}

/** Every suite with its item count, by name. */
export function listSuites(store: Store): SuiteSummary[] {
  const rows = store.db
    .prepare(
      `SELECT s.id, s.name, s.description, s.origin,
              (SELECT count(*) FROM suite_items i WHERE i.suite_id = s.id) AS item_count
         FROM suites s ORDER BY s.name`,
    )
    .all() as SuiteRow[];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    origin: row.origin,
    itemCount: row.item_count,
  }));
}
