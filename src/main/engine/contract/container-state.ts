/**
 * The port a substrate whose state needs a process in the item's container (PostgreSQL) uses to
 * take part in the Docker backend's preparation and reps, without the substrate importing the
 * Docker machinery: the machinery hands it `run`, and calls its steps at fixed points.
 */
import type { BootstrapImageKind } from '../../../shared/lab-api/environment';
import type { SqlResult, ToolLimits } from './environment';

/** What one command in the container produced, as bytes. */
export interface ContainerRunResult {
  stdout: Buffer;
  stderr: Buffer;
  /** null when the command was killed (timeout, or an output flood). */
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
}

/** Runs `argv` in the container as `user`, through the Docker machinery's exec. */
export type ContainerRun = (
  argv: readonly string[],
  options: { user: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
) => Promise<ContainerRunResult>;

/**
 * Runs `argv` on the rep's own exec path, so a container that dies under the judge's query is
 * an environment loss (a rerun), never a failed query the judge scores. As the judge's user,
 * unless `user` names another (the substrate's own service user, to clean up after a query).
 */
export type RepRun = (
  argv: string[],
  limits: ToolLimits,
  maxOutputBytes: number,
  user?: string,
) => Promise<ContainerRunResult>;

/** A substrate's part in one item's container, in the order the Docker backend uses it. */
export interface ContainerState {
  /** The bootstrapped image an item starts from when it names none, and its progress label. */
  image: { kind: BootstrapImageKind; label: string };
  /** Environment variables of every container of the item (`NAME=value`). */
  environment: readonly string[];
  /** Files put in the prepare container (relative to "/") before `load`. */
  stagedFiles: readonly { path: string; content: string | Buffer }[];
  /** True when the root filesystem must stay writable even for a shell-less judge. */
  writableRoot: boolean;
  /** The sentence the judge's environment description adds. */
  description: string;
  /**
   * Part of the item snapshot's hash: bumped when the way `load` makes the state changes, so a
   * snapshot made the old way is not reused.
   */
  format?: number;
  /** In the prepare container, as root, after the item's files: makes and loads the state. */
  load(run: ContainerRun, workdir: string, signal?: AbortSignal): Promise<void>;
  /** After setup and replay, before the snapshot commit: checks the state and stops cleanly. */
  seal(run: ContainerRun, signal?: AbortSignal): Promise<void>;
  /** In each rep container, before the judge's first call. */
  start(run: ContainerRun, signal?: AbortSignal): Promise<void>;
  /** The judge's `sql_query`, when this state answers it. */
  query?: (run: RepRun, sql: string, limits: ToolLimits) => Promise<SqlResult>;
}
