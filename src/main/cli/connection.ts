/**
 * How a command reaches LabApi: the handlers of an engine opened in this process (the
 * default), or a running engine over HTTP (`cuelab --engine URL --token T ...`). Commands see
 * only the typed LabApi either way, so each prints the same answer both ways.
 */
import { createRequire } from 'node:module';
import type WebSocket from 'ws';
import type { LabApi, LabEventMessage } from '../../shared/lab-api';
import {
  createLabClient,
  subscribeLabEvents,
  type EngineAddress,
  type WebSocketLike,
} from '../../shared/lab-client';
import type { LabError, LabResult } from '../../shared/result';
import { createInProcessClient } from '../engine/api';
import { existsSync } from 'node:fs';
import { createEngine, databasePath, workspaceForProcess, type Engine } from '../engine/engine';
import { CommandError, exitCodes, UsageError, type CliContext, type CliIo } from './command';

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
  /**
   * Listens to the engine's events (the hub here, the WebSocket of a running engine);
   * resolves once listening, to the function that stops it.
   */
  listen: (onEvent: (event: LabEventMessage) => void) => Promise<() => void>;
}

/** A LabApi call that failed: printed as `cuelab CMD: message`, exit 1. */
export class LabCallError extends Error {
  override name = 'LabCallError';
  /** The contract's error code. */
  readonly code: LabError['code'];
  /** One line per bad row of a rejected file (a labels or results import), else empty. */
  readonly problems: string[];

  constructor(error: LabError) {
    super(error.message);
    this.code = error.code;
    this.problems = (error.issues ?? [])
      .filter((issue) => issue.path === '(file)')
      .map((issue) => issue.message);
  }
}

/** The value of a LabApi result, or a thrown LabCallError with the engine's message. */
export function unwrap<T>(result: LabResult<T>): T {
  if (!result.ok) throw new LabCallError(result.error);
  return result.value;
}

/**
 * Prints a file the engine rejected row by row (`cuelab CMD: message`, then each bad row) and
 * answers exit 1; any other error is thrown on for runCli to print.
 */
export function printRejectedFile(command: string, error: unknown, io: CliIo): number {
  if (!(error instanceof LabCallError) || error.problems.length === 0) throw error;
  io.err(`cuelab ${command}: ${error.message}`);
  for (const problem of error.problems) io.err(`  ${problem}`);
  return exitCodes.failed;
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

/** How a command opens the workspace here. */
export interface OpenOptions {
  /**
   * A command that only reads (status, report, suite list, exports) refuses a workspace that
   * does not exist rather than creating an empty one: a mistyped --workspace is named as such.
   */
  readOnly?: boolean;
}

/**
 * Opens LabApi for a command: the remote engine of `context`, or the workspace here
 * (`--workspace DIR`, else $CUELAB_WORKSPACE, else the default folder).
 */
export function openLab(
  context: CliContext | undefined,
  workspace?: string,
  options: OpenOptions = {},
): LabSession {
  const remote = context?.remote ?? null;
  if (remote) {
    if (workspace !== undefined)
      throw new UsageError(
        '--workspace is for an engine opened here; a running engine (--engine) uses its own',
      );
    return {
      api: createLabClient(remote),
      engine: null,
      close: () => Promise.resolve(),
      listen: (onEvent) => listenRemote(remote, onEvent),
    };
  }
  const location = workspaceForProcess(workspace);
  if (options.readOnly && !existsSync(databasePath(location.path))) {
    const named = {
      flag: 'the --workspace folder',
      environment: 'the $CUELAB_WORKSPACE folder',
      default: 'the default workspace',
    }[location.source];
    throw new CommandError(
      `there is no workspace at ${location.path} (${named} has no cuelab.sqlite); nothing was ` +
        'created. Check the path, or start one with: cuelab demo (or cuelab run SPEC)',
    );
  }
  const engine = createEngine(location);
  return {
    api: createInProcessClient(engine.handlers),
    engine,
    close: async () => {
      await engine.stopRunner();
      engine.close();
    },
    listen: (onEvent) => Promise.resolve(engine.events.subscribe(onEvent)),
  };
}

/** How long a command waits for a running engine's event socket before going on without it. */
const listenTimeoutMs = 5000;

/** Subscribes to a running engine's WebSocket; resolves when it opened (or gave up). */
function listenRemote(
  remote: EngineAddress,
  onEvent: (event: LabEventMessage) => void,
): Promise<() => void> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(stop);
    };
    const stop = subscribeLabEvents(
      remote,
      // ws is required here, not at start: only a command following a running engine needs it.
      (url) => {
        const Socket = createRequire(__filename)('ws') as typeof WebSocket;
        return new Socket(url) as unknown as WebSocketLike;
      },
      { onEvent, onConnectionChange: settle },
    );
    // Progress is a courtesy: without the socket the command still runs and prints its answer.
    const timer = setTimeout(settle, listenTimeoutMs);
  });
}
