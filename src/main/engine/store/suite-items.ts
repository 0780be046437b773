import {
  taxonomySchema,
  suiteItemSchema,
  type SuiteFile,
  type SuiteItem,
  type SuiteTaxonomy,
  toolBudgetSettingSchema,
  type ToolBudgetSetting,
} from '../../../shared/suite-format';
import { EngineError } from '../errors';
import type { Store } from './database';
import { parseJsonColumn, readJsonRecordColumn } from './json-column';

/** Stores a suite and its items, replacing an earlier import of the same id. */
export function saveSuite(
  store: Store,
  suite: SuiteFile,
  origin: 'builtin' | 'imported',
  extraSettings: Record<string, unknown> = {},
): void {
  const now = new Date().toISOString();
  store.db.transaction(() => {
    store.db.prepare('DELETE FROM suite_items WHERE suite_id = ?').run(suite.id);
    store.db
      .prepare(
        `INSERT INTO suites (id, name, description, origin, created_at, settings_json)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
           origin = excluded.origin, settings_json = excluded.settings_json`,
      )
      .run(
        suite.id,
        suite.name,
        suite.description,
        origin,
        now,
        JSON.stringify({ ...suiteSettings(suite), ...extraSettings }),
      );
    const insert = store.db.prepare(
      'INSERT INTO suite_items (suite_id, item_id, body_json) VALUES (?, ?, ?)',
    );
    for (const item of suite.items) insert.run(suite.id, item.id, JSON.stringify(item));
    store.db.prepare('DELETE FROM suite_taxonomies WHERE suite_id = ?').run(suite.id);
    const taxonomy = store.db.prepare(
      'INSERT INTO suite_taxonomies (suite_id, taxonomy_id, body_json) VALUES (?, ?, ?)',
    );
    for (const entry of suite.taxonomies) taxonomy.run(suite.id, entry.id, JSON.stringify(entry));
  })();
}

/** One item of a stored suite; a clear error when either is missing. */
export function getSuiteItem(store: Store, suiteId: string, itemId: string): SuiteItem {
  const row = store.db
    .prepare('SELECT body_json FROM suite_items WHERE suite_id = ? AND item_id = ?')
    .get(suiteId, itemId) as { body_json: string } | undefined;
  if (!row) {
    const suite = store.db.prepare('SELECT id FROM suites WHERE id = ?').get(suiteId);
    throw new EngineError(
      'not_found',
      suite
        ? `Suite "${suiteId}" has no item "${itemId}". List its items with: cuelab suite list ${suiteId}`
        : `There is no suite "${suiteId}" in this workspace. Import one with: cuelab suite import FILE`,
    );
  }
  return parseJsonColumn(suiteItemSchema, row.body_json, {
    table: 'suite_items',
    row: `${suiteId}/${itemId}`,
    field: 'body_json',
  });
}

/** Taxonomies a stored suite defines. */
export function getSuiteTaxonomies(store: Store, suiteId: string): SuiteTaxonomy[] {
  const rows = store.db
    .prepare(
      'SELECT taxonomy_id, body_json FROM suite_taxonomies WHERE suite_id = ? ORDER BY taxonomy_id',
    )
    .all(suiteId) as { taxonomy_id: string; body_json: string }[];
  return rows.map((row) =>
    parseJsonColumn(taxonomySchema, row.body_json, {
      table: 'suite_taxonomies',
      row: `${suiteId}/${row.taxonomy_id}`,
      field: 'body_json',
    }),
  );
}

/** Item ids of a stored suite, in id order. */
export function listSuiteItemIds(store: Store, suiteId: string): string[] {
  const rows = store.db
    .prepare('SELECT item_id FROM suite_items WHERE suite_id = ? ORDER BY item_id')
    .all(suiteId) as { item_id: string }[];
  return rows.map((row) => row.item_id);
}

/** Suite-level settings kept beside the items. */
export interface SuiteSettings {
  toolBudget?: ToolBudgetSetting;
}

function suiteSettings(suite: SuiteFile): SuiteSettings {
  return suite.toolBudget === undefined ? {} : { toolBudget: suite.toolBudget };
}

function storedSettings(store: Store, suiteId: string): Record<string, unknown> | undefined {
  const text = store.db
    .prepare('SELECT settings_json FROM suites WHERE id = ?')
    .pluck()
    .get(suiteId);
  if (typeof text !== 'string') return undefined;
  return readJsonRecordColumn(text, { table: 'suites', row: suiteId, field: 'settings_json' });
}

/** Settings of a stored suite (empty when it has none). */
export function getSuiteSettings(store: Store, suiteId: string): SuiteSettings {
  const settings = storedSettings(store, suiteId);
  if (!settings) return {};
  const parsed = toolBudgetSettingSchema.optional().safeParse(settings.toolBudget);
  return parsed.success && parsed.data !== undefined ? { toolBudget: parsed.data } : {};
}

/** The content version a built-in suite was stored at; undefined when absent or imported. */
export function storedBuiltinVersion(store: Store, suiteId: string): string | undefined {
  const version = storedSettings(store, suiteId)?.builtinVersion;
  return typeof version === 'string' ? version : undefined;
}

/** The gold label an item's body names, read without checking the rest of the item. */
export function suiteItemGold(store: Store, suiteId: string, itemId: string): string | undefined {
  const text = store.db
    .prepare('SELECT body_json FROM suite_items WHERE suite_id = ? AND item_id = ?')
    .pluck()
    .get(suiteId, itemId);
  if (typeof text !== 'string') return undefined;
  const gold = readJsonRecordColumn(text, {
    table: 'suite_items',
    row: `${suiteId}/${itemId}`,
    field: 'body_json',
  }).gold;
  return typeof gold === 'string' ? gold : undefined;
}

/** Every item of a stored suite, in id order. */
export function listSuiteItems(store: Store, suiteId: string): SuiteItem[] {
  const rows = store.db
    .prepare('SELECT item_id, body_json FROM suite_items WHERE suite_id = ? ORDER BY item_id')
    .all(suiteId) as { item_id: string; body_json: string }[];
  return rows.map((row) =>
    parseJsonColumn(suiteItemSchema, row.body_json, {
      table: 'suite_items',
      row: `${suiteId}/${row.item_id}`,
      field: 'body_json',
    }),
  );
}
