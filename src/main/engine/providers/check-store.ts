/**
 * Connection checks stored in the workspace (`provider-checks.json` beside the database), one
 * per provider, endpoint and model: the latest result wins. Read back, a file that does not
 * parse counts as no checks (the user can check again); it is never trusted as a pass.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProviderCheck } from './check';

const FILE = 'provider-checks.json';
const MAX_BYTES = 1 << 20;

const storedSchema = z.record(
  z.string(),
  z.object({
    provider: z.string(),
    model: z.string(),
    baseUrl: z.string().nullable(),
    checkedAt: z.string(),
    ok: z.boolean(),
    problem: z.string().nullable(),
    toolCalls: z.boolean(),
    dialect: z.string().nullable(),
    reasoning: z.boolean(),
    caching: z.enum(['on', 'off']).nullable(),
    latencyMs: z.number().nullable(),
    price: z
      .object({
        input: z.number(),
        output: z.number(),
        cacheRead: z.number().nullable(),
        cacheWrite: z.number().nullable(),
      })
      .nullable(),
  }),
) satisfies z.ZodType<Record<string, ProviderCheck>>;

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
