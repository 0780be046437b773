import type { StudyStatus, StudySummary } from '../../../shared/lab-api';
import type { Store } from './database';
import { damageOfStudy } from './study-damage';

interface StudyRow {
  id: string;
  name: string;
  status: StudyStatus;
  simulated: number;
  created_at: string;
  updated_at: string;
}

/** Studies, newest first; one whose rows the open check found damaged says why. */
export function listStudies(store: Store, limit = 200): StudySummary[] {
  const rows = store.db
    .prepare(
      `SELECT id, name, status, simulated, created_at, updated_at
         FROM studies ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(limit) as StudyRow[];
  return rows.map((row) => {
    const damaged = damageOfStudy(store, row.id);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      simulated: row.simulated === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...(damaged === undefined ? {} : { damaged }),
    };
  });
}
