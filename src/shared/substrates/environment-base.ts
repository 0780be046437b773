/**
 * What every environment spec has whatever its substrate: the item's files, the shell switch,
 * the Docker backend's settings and the layered substrates (the web). Each substrate's member
 * of the union in suite-format.ts extends this with its own state.
 */
import { z } from 'zod';
import { webSpecSchema } from './web';

/**
 * Why a path is unsafe on any OS the engine runs on, or undefined: `..` segments, backslashes
 * (a separator on Windows), drive letters (`C:`), UNC/device prefixes and NUL bytes.
 */
function unsafePathReason(path: string): string | undefined {
  if (path.includes('\0')) return 'must not contain NUL bytes';
  if (path.includes('\\')) return 'must not contain a backslash';
  if (/(^|\/)[A-Za-z]:/.test(path)) return 'must not name a drive (C:)';
  if (path.startsWith('//')) return 'must not be a UNC or device path';
  if (path.split('/').includes('..')) return 'must not contain ".."';
  return undefined;
}

/** A path inside the environment, relative to its `workdir`. */
export const relativePath = z
  .string()
  .min(1)
  .superRefine((path, context) => {
    const reason = path.startsWith('/') ? 'must be relative' : unsafePathReason(path);
    if (reason)
      context.addIssue({
        code: 'custom',
        message: `${reason} (a relative path inside the environment)`,
      });
  });

const absolutePath = z
  .string()
  .regex(/^\/[^\0]*$/, 'must be an absolute path')
  .superRefine((path, context) => {
    const reason = unsafePathReason(path);
    if (reason) context.addIssue({ code: 'custom', message: reason });
  });

/** Limits on each container of the Docker backend. */
export const containerResourcesSchema = z
  .object({
    /** CPUs (fractions allowed); default 1. */
    cpus: z.number().positive().max(64).optional(),
    /** Memory in MiB (no swap on top); default 1024. */
    memoryMb: z.number().int().min(16).optional(),
    /** Most processes at once; default 256. */
    pids: z.number().int().min(8).optional(),
  })
  .strict();

/**
 * The fields every member shares. `files` and `shell` serve both backends; every other field
 * is for the Docker backend, optional, with the default named beside it (so specs written
 * before these fields existed mean what they meant).
 */
export const environmentBaseSchema = z
  .object({
    /** Files of the agent's final state, path (relative to `workdir`) → content. */
    files: z.record(relativePath, z.string()).default({}),
    /** A web snapshot served to `web_search` and `fetch_url` over any member (a layer). */
    web: webSpecSchema.optional(),
    /** Whether the judge may run shell commands (needs the Docker backend). */
    shell: z.boolean().default(false),
    /** Image to start from; default the bootstrapped `cuelab/base` (`cuelab env bootstrap`). */
    image: z.string().min(1).optional(),
    /**
     * A Dockerfile to build and start from instead of `image`: FROM a local image (e.g.
     * `cuelab/base:latest`), or any image where a registry answers.
     */
    dockerfile: z.string().min(1).optional(),
    /**
     * Files sent beside `dockerfile` in its build context, path → base64 bytes, so `COPY x /y`
     * finds them (a Terminal-Bench task folder, say); only with `dockerfile`, at most
     * `buildContextLimits` in files and decoded bytes.
     */
    buildContext: z.record(relativePath, z.string()).optional(),
    /** Absolute folder that holds `files` and where commands start; default `/workspace`. */
    workdir: absolutePath.optional(),
    /** Shell commands run as root in `workdir`, in order, after `files`; each must exit 0. */
    setup: z.array(z.string().min(1)).optional(),
    /**
     * Replay the agent's recorded shell tool calls from the trajectory, in order, after `setup`
     * (AJ-Bench style); default false. `files` are then the state before the agent acted.
     */
    replay: z.boolean().optional(),
    /** Tool names whose calls `replay` runs; default shell, bash, execute_bash, run_shell_command. */
    replayTools: z.array(z.string().min(1)).min(1).optional(),
    /**
     * Who the judge's commands run as: default "agent" (a non-root user the snapshot creates
     * when the image lacks it), "root", or any user name or uid[:gid].
     */
    user: z
      .string()
      .regex(/^([a-z_][a-z0-9_-]{0,31}|\d+(:\d+)?)$/, 'a user name or uid[:gid]')
      .optional(),
    /**
     * Shell lines the judge's shell runs before each of its commands, as the judge's user
     * (e.g. activating the conda env a SWE-bench image's tests need); default none.
     */
    shellInit: z.string().min(1).max(4096).optional(),
    /** Network for setup, replay and the judge; default false (no network interface but lo). */
    network: z.boolean().optional(),
    /** CPU, memory and process limits per container. */
    resources: containerResourcesSchema.optional(),
  })
  .strict();
