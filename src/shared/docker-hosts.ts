/**
 * Docker engines that run judge containers: the workstation's own (`local`) plus remote ones the
 * user adds. Hosts only run tool commands; model calls and keys stay in the engine.
 */
import { z } from 'zod';

/** The id of the workstation's own Docker engine (DOCKER_HOST or the default socket). */
export const LOCAL_DOCKER_HOST_ID = 'local';

/** Client certificates for `tcp://` with TLS (paths on the workstation). */
export const dockerTlsSchema = z
  .object({
    /** CA certificate that signed the daemon's certificate. */
    caPath: z.string().min(1),
    /** Client certificate and key the daemon accepts (`--tlsverify`). */
    certPath: z.string().min(1),
    keyPath: z.string().min(1),
  })
  .strict();

const hostUrl = z
  .string()
  .trim()
  .refine(
    (url) =>
      url === LOCAL_DOCKER_HOST_ID ||
      /^unix:\/\/\/\S+$/.test(url) ||
      /^tcp:\/\/[A-Za-z0-9.-]+:\d{1,5}$/.test(url) ||
      /^ssh:\/\/[A-Za-z0-9._-]+@[A-Za-z0-9.-]+(:\d{1,5})?$/.test(url),
    'a Docker host is local, unix:///PATH, tcp://HOST:PORT or ssh://USER@HOST[:PORT]',
  );

/** One configured Docker engine. */
export const dockerHostConfigSchema = z
  .object({
    /** Short name shown in Settings and `cuelab env hosts`. */
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/, 'lower-case letters, digits, ".", "_" or "-"'),
    url: hostUrl,
    /** Containers this host runs at once. */
    maxContainers: z.number().int().min(1).max(512),
    tls: dockerTlsSchema.optional(),
    /** Private key for ssh:// (else the ssh agent in SSH_AUTH_SOCK). */
    sshKeyPath: z.string().min(1).optional(),
    /** A disabled host keeps its settings but gets no reps. */
    enabled: z.boolean().default(true),
  })
  .strict();

/** How a host looks right now. */
export const dockerHostStatusSchema = z.object({
  id: z.string(),
  url: z.string(),
  maxContainers: z.number().int(),
  enabled: z.boolean(),
  /** `up`: answered its last probe; `down`: did not (reps go elsewhere); `unknown`: not probed. */
  state: z.enum(['up', 'down', 'unknown']),
  dockerVersion: z.string().optional(),
  /** Why it is down, with what to check. */
  problem: z.string().optional(),
  /** Whether the base image judge containers start from is on the host. */
  baseImagePresent: z.boolean().optional(),
  /** CueLab item snapshot and base images on the host. */
  images: z.number().int().optional(),
  /** CueLab containers running on the host (any engine process). */
  containersRunning: z.number().int().optional(),
  /** Reps this engine process has in flight on the host / finished there. */
  inFlight: z.number().int(),
  repsDone: z.number().int(),
  lastProbeAt: z.string().optional(),
});

/** A configured host. */
export type DockerHostConfig = z.output<typeof dockerHostConfigSchema>;
/** A host's live status. */
export type DockerHostStatus = z.output<typeof dockerHostStatusSchema>;
