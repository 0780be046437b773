/**
 * How a command reaches LabApi: the handlers of an engine opened in this process (the
 * default), or a running engine over HTTP (`cuelab --engine URL --token T ...`). Commands see
 * only the typed LabApi either way, so each prints the same answer both ways.
 */
import type { LabApi } from '../../shared/lab-api';
import { createLabClient, type EngineAddress } from '../../shared/lab-client';
import type { LabError, LabResult } from '../../shared/result';
import { createInProcessClient } from '../engine/api/in-process-client';
import { createEngine, type Engine } from '../engine/engine';
import { workspaceForProcess } from '../engine/workspace';
import { UsageError, type CliContext } from './command';

/** The environment variables that name a running engine (like --engine / --token). */
export const engineEnvNames = { engine: 'CUELAB_ENGINE', token: 'CUELAB_TOKEN' } as const;

/** The global options text of `cuelab --help`. */
export const engineOptionsUsage = `  --engine URL    drive a running engine (cuelab serve, or the open app) instead of
                  opening the workspace here; also $${engineEnvNames.engine}. The ready line's
                  URL works as it is (its ?token= is used and never printed).
  --token T       that engine's launch token; also $${engineEnvNames.token}`;

/** A LabApi client and, when it runs here, the engine behind it. */
export interface LabSession {
  readonly api: LabApi;
  /** The engine in this process; null when the session drives a running engine. */
  readonly engine: Engine | null;
  /** Stops a local runner and closes the database; nothing to do for a remote engine. */
  close: () => Promise<void>;
}

/** A LabApi call that failed: printed as `cuelab CMD: message`, exit 1. */
export class LabCallError extends Error {
  override name = 'LabCallError';
  /** The contract's error code. */
  readonly code: LabError['code'];

  constructor(error: LabError) {
    super(error.message);
    this.code = error.code;
  }
}

/** The value of a LabApi result, or a thrown LabCallError with the engine's message. */
export function unwrap<T>(result: LabResult<T>): T {
  if (!result.ok) throw new LabCallError(result.error);
  return result.value;
}

/** What the global options before the command name said. */
export interface GlobalOptions {
  /** The arguments from the command name on. */
  rest: string[];
  /** The engine named by flags, else by the environment. */
  remote: EngineAddress | null;
  /** True when the engine was named on the command line (a local command refuses it). */
  explicit: boolean;
}

/** Splits `--engine URL` / `--token T` (either as `--x=v`) off the front of `args`. */
export function parseGlobalOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): GlobalOptions {
  let engine: string | undefined;
  let token: string | undefined;
  let index = 0;
  while (index < args.length) {
    const arg = args[index] as string;
    const match = /^--(engine|token)(?:=(.*))?$/.exec(arg);
    if (!match) break;
    const value = match[2] ?? args[index + 1];
    if (value === undefined || value === '' || (match[2] === undefined && value.startsWith('-')))
      throw new UsageError(`--${match[1]} needs a value`);
    if (match[1] === 'engine') engine = value;
    else token = value;
    index += match[2] === undefined ? 2 : 1;
  }
  const rest = args.slice(index);
  const explicit = engine !== undefined || token !== undefined;
  if (!explicit) {
    engine = env[engineEnvNames.engine] || undefined;
    token = env[engineEnvNames.token] || undefined;
  }
  if (engine === undefined) {
    if (explicit) throw new UsageError('--token needs --engine URL (the engine it is for)');
    return { rest, remote: null, explicit };
  }
  return { rest, remote: engineAddress(engine, token), explicit };
}

/** The address of a running engine; a `?token=` in the URL stands in for a missing token. */
function engineAddress(engine: string, token: string | undefined): EngineAddress {
  let url: URL;
  try {
    url = new URL(engine);
  } catch {
    throw new UsageError(`--engine must be a URL such as http://127.0.0.1:43121/, not "${engine}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--engine must be an http:// or https:// URL, not ${url.protocol}`);
  const fromUrl = url.searchParams.get('token') ?? undefined;
  const chosen = token ?? fromUrl;
  if (!chosen)
    throw new UsageError(
      `--engine needs its launch token: --token T or $${engineEnvNames.token} (cuelab serve prints it)`,
    );
  // The token never travels in a URL we build or print; only in the Authorization header.
  url.search = '';
  url.hash = '';
  return { baseUrl: url.toString(), token: chosen };
}

/**
 * Opens LabApi for a command: the remote engine of `context`, or the workspace here
 * (`--workspace DIR`, else $CUELAB_WORKSPACE, else the default folder).
 */
export function openLab(context: CliContext | undefined, workspace?: string): LabSession {
  const remote = context?.remote ?? null;
  if (remote) {
    if (workspace !== undefined)
      throw new UsageError(
        '--workspace is for an engine opened here; a running engine (--engine) uses its own',
      );
    return { api: createLabClient(remote), engine: null, close: () => Promise.resolve() };
  }
  const engine = createEngine(workspaceForProcess(workspace));
  return {
    api: createInProcessClient(engine.handlers),
    engine,
    close: async () => {
      await engine.stopRunner();
      engine.close();
    },
  };
}
