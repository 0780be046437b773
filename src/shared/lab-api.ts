/**
 * The LabApi contract: every request the renderer or CLI can make of the engine, with a zod
 * schema for its request and its response, and the event streams the engine pushes. Each
 * service's methods live in their own file under lab-api/ (one per domain, with a handler file
 * of the same domain under engine/api/); this file joins them into the one typed map the HTTP +
 * WebSocket transport (src/main/server) implements and the client (lab-client.ts) is generated
 * from. Later work grows a domain's file, never a side channel.
 */
import type { z } from 'zod';
import { bundleMethods, fileEvents } from './lab-api/bundles';
import { compareMethods } from './lab-api/compare';
import { cueFamilyMethods } from './lab-api/cue-families';
import { environmentEvents, environmentMethods } from './lab-api/environment';
import { importMethods } from './lab-api/import';
import { labelMethods } from './lab-api/labels';
import { mechanismEvents, mechanismMethods } from './lab-api/mechanisms';
import { promptMethods, type promptPreviewSchema } from './lab-api/prompts';
import { reportEvents, reportMethods } from './lab-api/reports';
import { providerMethods } from './lab-api/providers';
import { repMethods } from './lab-api/reps';
import { secretMethods } from './lab-api/secrets';
import {
  studyEvents,
  studyMethods,
  type studyStatusSchema,
  type studySummarySchema,
} from './lab-api/studies';
import { suiteEvents, suiteMethods, type suiteSummarySchema } from './lab-api/suites';
import { type dockerStatusSchema, workspaceEvents, workspaceMethods } from './lab-api/workspace';
import type { LabResult } from './result';

/** Every LabApi method: request schema (what the engine accepts) and response schema. */
export const labMethods = {
  ...workspaceMethods,
  ...studyMethods,
  ...suiteMethods,
  ...promptMethods,
  ...cueFamilyMethods,
  ...reportMethods,
  ...compareMethods,
  ...repMethods,
  ...mechanismMethods,
  ...labelMethods,
  ...bundleMethods,
  ...environmentMethods,
  ...secretMethods,
  ...providerMethods,
  ...importMethods,
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

/** The engine's liveness answer. */
export type HealthInfo = LabResponse<'health'>;
/** The workspace the engine serves. */
export type WorkspaceInfo = LabResponse<'workspaceInfo'>;
/** Docker as the engine sees it. */
export type DockerStatus = z.output<typeof dockerStatusSchema>;
/** One suite, as listed. */
export type SuiteSummary = z.output<typeof suiteSummarySchema>;
/** One study, as listed. */
export type StudySummary = z.output<typeof studySummarySchema>;
/** Lifecycle of a study. */
export type StudyStatus = z.output<typeof studyStatusSchema>;
/** The exact prompt of one rep. */
export type PromptPreview = z.output<typeof promptPreviewSchema>;

/** True when `name` is a LabApi method. */
export function isLabMethod(name: string): name is LabMethod {
  return Object.prototype.hasOwnProperty.call(labMethods, name);
}

/** Event streams the engine pushes over the WebSocket, by stream name. */
export const labEvents = {
  ...workspaceEvents,
  ...studyEvents,
  ...reportEvents,
  ...suiteEvents,
  ...mechanismEvents,
  ...environmentEvents,
  ...fileEvents,
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
