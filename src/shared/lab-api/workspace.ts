/**
 * LabApi methods about the engine itself: whether it answers, which workspace it serves, and
 * whether Docker is there (the first thing a window or CLI asks).
 */
import { z } from 'zod';

/** Docker as the engine sees it; `fix` says exactly what to run when it is unavailable. */
export const dockerStatusSchema = z.object({
  /** True when the Docker engine answered a ping. */
  available: z.boolean(),
  /** Engine version string when available. */
  version: z.string().optional(),
  /** Why it is unavailable, in one sentence. */
  problem: z.string().optional(),
  /** The commands that make it available. */
  fix: z.string().optional(),
});

/** The engine's answer to `health`. */
export const healthSchema = z.object({
  /** Always 'ok' when the engine answers at all. */
  status: z.literal('ok'),
  /** The engine's package version. */
  version: z.string(),
  /** Absolute path of the workspace folder in use. */
  workspace: z.string(),
  /** ISO time the engine process started. */
  startedAt: z.string(),
});

/** Where the workspace lives and what its database holds. */
export const workspaceInfoSchema = z.object({
  /** Absolute path of the workspace folder. */
  path: z.string(),
  /** Absolute path of the SQLite database file. */
  databasePath: z.string(),
  /** Schema version the database is at. */
  schemaVersion: z.number().int(),
  /** Newest schema version this engine knows. */
  latestSchemaVersion: z.number().int(),
  /** How the workspace was chosen. */
  source: z.enum(['flag', 'environment', 'default']),
  /** Docker availability, probed on request. */
  docker: dockerStatusSchema,
});

/** Workspace methods. */
export const workspaceMethods = {
  /** Liveness, version and workspace. */
  health: { request: z.object({}).strict(), response: healthSchema },
  /** Workspace location, schema version, Docker status. */
  workspaceInfo: { request: z.object({}).strict(), response: workspaceInfoSchema },
} as const;

/** Workspace events. */
export const workspaceEvents = {
  /** Sent once when a client connects: which engine it reached. */
  'engine.hello': z.object({ version: z.string(), workspace: z.string(), startedAt: z.string() }),
} as const;
