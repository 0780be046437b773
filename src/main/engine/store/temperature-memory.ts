import { createTemperaturePolicy, type TemperaturePolicy } from '../providers';
import type { Store } from './database';

/**
 * A temperature policy remembered in the workspace, so a model that rejected `temperature`
 * once (App. R: Opus-4.7) never gets it again, across runs and restarts.
 */
export function workspaceTemperaturePolicy(store: Store): TemperaturePolicy {
  const rows = store.db
    .prepare('SELECT provider, model FROM model_settings_memory WHERE temperature_rejected = 1')
    .all() as { provider: string; model: string }[];
  const upsert = store.db.prepare(
    `INSERT INTO model_settings_memory (provider, model, temperature_rejected, updated_at)
     VALUES (?, ?, 1, ?) ON CONFLICT (provider, model) DO UPDATE SET
       temperature_rejected = 1, updated_at = excluded.updated_at`,
  );
  return createTemperaturePolicy({
    initial: rows.map((row) => ({ providerKind: row.provider, model: row.model })),
    persist: (rejections) => {
      const now = new Date().toISOString();
      for (const rejection of rejections) upsert.run(rejection.providerKind, rejection.model, now);
    },
  });
}
