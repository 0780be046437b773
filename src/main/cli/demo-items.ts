/**
 * Which items the demo judges: the demo spec's own selection, plus one PostgreSQL item when
 * the user asks (`--postgres`) or the Postgres image is already built (so a plain
 * `npx cuelab demo` never builds a 522 MB image first).
 */
import type { StudySpec } from '../../shared/study-spec';
import type { SuiteItem } from '../../shared/suite-format';
import { selectItems } from '../engine/machine';
import { postgresName } from '../../shared/substrates/postgres';

/** The demo spec with its items pinned by id, a Postgres item added when `withPostgres`. */
export function demoSpecWithItems(
  spec: StudySpec,
  items: readonly SuiteItem[],
  withPostgres: boolean,
): StudySpec {
  const chosen = selectItems(spec, items);
  if (!withPostgres || chosen.some((item) => item.substrate === postgresName)) return spec;
  const postgres = [...items]
    .sort((a, b) => a.id.localeCompare(b.id))
    .find((item) => item.substrate === postgresName);
  if (!postgres) return spec;
  return { ...spec, items: { ids: [...chosen.map((item) => item.id), postgres.id] } };
}

/** "Substrates: filesystem (2), web (1), …": what the demo's items run on. */
export function substratesLine(spec: StudySpec, items: readonly SuiteItem[]): string {
  const counts = new Map<string, number>();
  for (const item of selectItems(spec, items)) {
    counts.set(item.substrate, (counts.get(item.substrate) ?? 0) + 1);
  }
  const parts = [...counts].sort(([a], [b]) => a.localeCompare(b));
  return `Substrates: ${parts.map(([name, count]) => `${name} (${count})`).join(', ')}`;
}
