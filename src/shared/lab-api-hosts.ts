/**
 * LabApi methods for the Docker engines that run judge containers (Settings, `cuelab env hosts`).
 * A host is configured by the user only: suites, specs and bundles never name one.
 */
import { z } from 'zod';
import { dockerHostConfigSchema, dockerHostStatusSchema } from './docker-hosts';

const hostList = z.array(dockerHostStatusSchema);

/** Host methods, spread into `labMethods`. */
export const hostMethods = {
  /** Every enabled host with a fresh probe: reachable, Docker version, images, containers, reps. */
  listDockerHosts: { request: z.object({}).strict(), response: hostList },
  /** Adds or replaces a host (`local` changes only its limit); answers the new list. */
  saveDockerHost: { request: dockerHostConfigSchema, response: hostList },
  /** Removes a host (reps in flight there finish); answers the new list. */
  removeDockerHost: {
    request: z.object({ id: z.string().min(1) }).strict(),
    response: hostList,
  },
} as const;
