/**
 * The LabApi contract: every request the renderer or CLI can make of the engine, with a zod
 * schema for its request and its response, and the event streams the engine pushes.
 * The HTTP + WebSocket transport (src/main/server) implements exactly this map; the client
 * (lab-client.ts) is generated from it. Later issues grow the map, never a side channel.
 */
import { z } from 'zod';
import { cliMethods } from './lab-api-cli';
import { commandEvents, commandMethods } from './lab-api-commands';
import { compareMethods } from './lab-api-compare';
import { repMethods } from './lab-api-reps';
import { hostMethods } from './lab-api-hosts';
import { importMethods } from './lab-api-import';
import { mechanismMethods } from './lab-api-mechanisms';
import { promptPreviewSchema } from './lab-api-prompt';
import { suiteCommandMethods } from './lab-api-suite-commands';
import { suiteSummarySchema } from './lab-api-suite-summary';
import { studyEvents, studyMethods } from './lab-api-studies';
import { repConditionSchema } from './rep-condition';
import type { LabResult } from './result';

export { chatMessageSchema, promptPreviewSchema } from './lab-api-prompt';
export { suiteSummarySchema } from './lab-api-suite-summary';

const emptyRequest = z.object({}).strict();

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

/** Lifecycle of a study. */
export const studyStatusSchema = z.enum([
  'draft',
  'queued',
  'running',
  'paused',
  'cancelled',
  'completed',
  'failed',
]);

/** One study, as listed. */
export const studySummarySchema = z.object({
  /** Stable identifier. */
  id: z.string(),
  /** Human name. */
  name: z.string(),
  /** Current lifecycle state. */
  status: studyStatusSchema,
  /** ISO creation time. */
  createdAt: z.string(),
  /** ISO time of the last change. */
  updatedAt: z.string(),
  /** True when any rep came from the synthetic (simulated) judge. */
  simulated: z.boolean(),
});

/** Every LabApi method: request schema (what the engine accepts) and response schema. */
export const labMethods = {
  /** Liveness, version and workspace. */
  health: { request: emptyRequest, response: healthSchema },
  /** Workspace location, schema version, Docker status. */
  workspaceInfo: { request: emptyRequest, response: workspaceInfoSchema },
  /** Suites in the workspace. */
  listSuites: { request: emptyRequest, response: z.array(suiteSummarySchema) },
  /** Studies in the workspace, newest first. */
  listStudies: {
    request: z
      .object({
        /** At most this many studies (default 200). */
        limit: z.number().int().min(1).max(10_000).optional(),
      })
      .strict(),
    response: z.array(studySummarySchema),
  },
  /** The exact messages and tools a rep of one item under one condition would send. */
  previewPrompt: {
    request: z
      .object({
        suiteId: z.string().min(1),
        itemId: z.string().min(1),
        condition: repConditionSchema.optional(),
      })
      .strict(),
    response: promptPreviewSchema,
  },
  ...studyMethods,
  ...mechanismMethods,
  ...hostMethods,
  ...importMethods,
  ...cliMethods,
  ...commandMethods,
  ...suiteCommandMethods,
  ...compareMethods,
  ...repMethods,
} as const;

/** Name of a LabApi method. */
export type LabMethod = keyof typeof labMethods;
/** What a caller passes to method M. */
export type LabRequest<M extends LabMethod> = z.input<(typeof labMethods)[M]['request']>;
/** What method M answers on success. */
export type LabResponse<M extends LabMethod> = z.output<(typeof labMethods)[M]['response']>;

/** The typed API: one promise-returning function per method, errors as data. */
export type LabApi = {
  [M in LabMethod]: (request: LabRequest<M>) => Promise<LabResult<LabResponse<M>>>;
};

export type HealthInfo = LabResponse<'health'>;
export type WorkspaceInfo = LabResponse<'workspaceInfo'>;
export type DockerStatus = z.output<typeof dockerStatusSchema>;
export type SuiteSummary = z.output<typeof suiteSummarySchema>;
export type StudySummary = z.output<typeof studySummarySchema>;
export type StudyStatus = z.output<typeof studyStatusSchema>;
export type PromptPreview = z.output<typeof promptPreviewSchema>;

/** True when `name` is a LabApi method. */
export function isLabMethod(name: string): name is LabMethod {
  return Object.prototype.hasOwnProperty.call(labMethods, name);
}

/** Event streams the engine pushes over the WebSocket, by stream name. */
export const labEvents = {
  /** Sent once when a client connects: which engine it reached. */
  'engine.hello': z.object({ version: z.string(), workspace: z.string(), startedAt: z.string() }),
  /** The list of studies changed (created, status moved, deleted). */
  'studies.changed': z.object({ studyId: z.string().optional() }),
  /** The list of suites changed (imported, removed). */
  'suites.changed': z.object({ suiteId: z.string().optional() }),
  ...studyEvents,
  ...commandEvents,
} as const;

/** Name of an event stream. */
export type LabEventStream = keyof typeof labEvents;
/** Payload of stream S. */
export type LabEventData<S extends LabEventStream> = z.output<(typeof labEvents)[S]>;
/** One message on the WebSocket. */
export type LabEventMessage = {
  [S in LabEventStream]: { stream: S; data: LabEventData<S> };
}[LabEventStream];

/** Parses an unknown WebSocket message into a typed event, or null when it is not one. */
export function parseLabEvent(raw: unknown): LabEventMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { stream, data } = raw as { stream?: unknown; data?: unknown };
  if (typeof stream !== 'string' || !Object.prototype.hasOwnProperty.call(labEvents, stream)) {
    return null;
  }
  const parsed = labEvents[stream as LabEventStream].safeParse(data);
  return parsed.success ? ({ stream, data: parsed.data } as LabEventMessage) : null;
}

/** The URL paths of the transport, shared by server and client. */
export const labPaths = {
  /** Prefix of every method: `POST /api/<method>` (and `GET` for methods with no fields). */
  methodPrefix: '/api/',
  /** The event WebSocket; the token goes in the `token` query parameter. */
  events: '/api/events',
} as const;
