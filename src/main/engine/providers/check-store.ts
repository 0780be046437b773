/**
 * Connection checks stored in the workspace (`provider-checks.json` beside the database), one
 * per provider, endpoint and model: the latest result wins. Read back, a file that does not
 * parse counts as no checks (the user can check again); it is never trusted as a pass.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { providerCheckSchema } from '../../../shared/lab-api/providers';
import type { ProviderCheck } from './check';

const FILE = 'provider-checks.json';
const MAX_BYTES = 1 << 20;

const storedSchema = z.record(z.string(), providerCheckSchema) satisfies z.ZodType<
  Record<string, ProviderCheck>
>;

/** The key a check is stored under. */
function keyOf(check: { provider: string; model: string; baseUrl: string | null }): string {
  return `${check.provider}|${check.baseUrl ?? ''}|${check.model}`;
}

function readAll(workspaceDir: string): Record<string, ProviderCheck> {
  const path = join(workspaceDir, FILE);
  if (!existsSync(path) || statSync(path).size > MAX_BYTES) return {};
  try {
    const parsed = storedSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Stores a check (atomically: a crash leaves the old file or the new one). */
export function saveProviderCheck(workspaceDir: string, check: ProviderCheck): void {
  const all = readAll(workspaceDir);
  all[keyOf(check)] = check;
  const path = join(workspaceDir, FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(all, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** The last check of this provider, endpoint and model, if any. */
export function lastProviderCheck(
  workspaceDir: string,
  judge: { provider: string; model: string; baseUrl?: string | undefined },
): ProviderCheck | undefined {
  return readAll(workspaceDir)[keyOf({ ...judge, baseUrl: judge.baseUrl ?? null })];
}

/** Every stored check, newest first (Settings lists them with a button to check again). */
export function listProviderChecks(workspaceDir: string): ProviderCheck[] {
  return Object.values(readAll(workspaceDir)).sort((a, b) =>
    b.checkedAt.localeCompare(a.checkedAt),
  );
}
