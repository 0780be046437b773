import type { Store } from '../../src/main/engine/store';

/** Adds the suite row `mini` that study rows refer to, with the given settings JSON. */
export function insertMiniSuiteRow(store: Store, settingsJson = '{}'): void {
  store.db
    .prepare(
      `INSERT INTO suites (id, name, description, origin, created_at, settings_json)
       VALUES ('mini', 'Mini', '', 'builtin', '2026-01-01', ?)`,
    )
    .run(settingsJson);
}
