/**
 * LabApi methods for the judge environments (Settings, `cuelab env`): whether Docker answers,
 * the bootstrapped images and their builds, and the Docker engines that run judge containers.
 * A host is configured by the user only: suites, specs and bundles never name one.
 */
import { z } from 'zod';
import { dockerHostConfigSchema, dockerHostStatusSchema } from '../docker-hosts';
import { postgresName } from '../substrates/postgres';

/** The images Settings and `cuelab env bootstrap` can build: the base, and the base plus PostgreSQL. */
const bootstrapImageSchema = z.enum(['base', postgresName]);

/** One of the bootstrapped images. */
export type BootstrapImageKind = z.output<typeof bootstrapImageSchema>;

const hostList = z.array(dockerHostStatusSchema);

/** Status of the judge environments (Docker and the base image). */
export const environmentStatusSchema = z.object({
  dockerAvailable: z.boolean(),
  /** Docker took the connection but did not answer in time (busy under load), not gone. */
  dockerSlow: z.boolean().optional(),
  /** ISO time Docker last answered the engine, when it is slow now. */
  dockerLastAnswered: z.string().optional(),
  dockerVersion: z.string().optional(),
  problem: z.string().optional(),
  fix: z.string().optional(),
  baseImage: z.object({ tag: z.string(), present: z.boolean(), sizeBytes: z.number().optional() }),
  /** The `cuelab/postgres` image items with a PostgreSQL state start from. */
  postgresImage: z.object({
    tag: z.string(),
    present: z.boolean(),
    sizeBytes: z.number().optional(),
  }),
  bootstrapRunning: z.boolean(),
  /** Which images are being built now. */
  building: z.array(bootstrapImageSchema),
});

/** Environment methods. */
export const environmentMethods = {
  environmentStatus: { request: z.object({}).strict(), response: environmentStatusSchema },
  /**
   * Starts building a bootstrapped image, the base one unless `image` says `postgres`
   * (progress arrives as `env.bootstrap` events).
   */
  startBootstrap: {
    request: z.object({ image: bootstrapImageSchema.default('base') }).strict(),
    response: environmentStatusSchema,
  },
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

/** Environment events. */
export const environmentEvents = {
  /** Base-image bootstrap progress. */
  'env.bootstrap': z.object({
    message: z.string(),
    done: z.boolean(),
    error: z.string().optional(),
    /** The image the line is about (absent: the base image). */
    image: bootstrapImageSchema.optional(),
  }),
} as const;
