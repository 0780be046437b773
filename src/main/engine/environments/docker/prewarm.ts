/**
 * Rep containers made ahead: while a rep runs, the container of the next rep of the same item
 * (same host, snapshot image, settings and owner) is created and started in the background,
 * so that rep starts on a ready container instead of waiting for create + start.
 *
 * A container made ahead is handed to exactly one rep and never back: every rep still gets a
 * fresh copy of the item's end state. One that no rep takes is removed — when its study stops
 * running (`retain`), when the runner stops (`drain`), when it waits longer than `idleMs`, or
 * when newer ones push it out of the `limit`. It carries the same labels as any rep container
 * (engine pid and host), so a killed engine's leftovers are orphans like any other.
 */
import type Docker from 'dockerode';
import {
  containerLabels,
  dockerLabels,
  removeContainer,
  withDockerDeadline,
  type ContainerOwner,
} from './client';
import { containerHostConfig, keepAliveCommand } from './item-settings';
import type { PreparedItem } from './prepare';

// Creating or starting a container on a busy machine can take seconds, never a minute.
const repStartTimeoutMs = 60_000;

/** Creates (not starts) a rep container from `prepared`'s snapshot, labelled for cleanup. */
export function createRepContainer(
  docker: Docker,
  prepared: PreparedItem,
  owner?: ContainerOwner,
  madeAhead = false,
): Promise<Docker.Container> {
  const labels = containerLabels(prepared.itemId, 'rep', owner);
  if (madeAhead) labels[dockerLabels.madeAhead] = 'true';
  // A hung Docker engine fails the rep (retried) instead of holding it forever. Not the
  // rep's signal: a create abandoned halfway would leave a container we know no id of.
  return withDockerDeadline(
    (abortSignal) =>
      docker.createContainer({
        Image: prepared.image,
        Cmd: keepAliveCommand,
        User: prepared.settings.user,
        WorkingDir: prepared.settings.workdir,
        Labels: labels,
        HostConfig: containerHostConfig(prepared.settings),
        abortSignal,
      }),
    { ms: repStartTimeoutMs },
  );
}

/** Starts a created rep container; a deadline only (an abort is the caller's dispose). */
export async function startRepContainer(container: Docker.Container): Promise<void> {
  await withDockerDeadline((abortSignal) => container.start({ abortSignal }), {
    ms: repStartTimeoutMs,
  });
}

/** Options of a prewarmer. */
export interface PrewarmOptions {
  /**
   * Most containers waiting at once (default: 1). The pool passes its reps in flight, so
   * there is about one container ahead per running rep and never a growing heap of them.
   */
  limit?: () => number;
  /** An untaken container is removed after this long (default 2 minutes). */
  idleMs?: number;
}

interface WaitingContainer {
  key: string;
  host: string;
  study: string | undefined;
  docker: Docker;
  /** The started container, or null when making it failed (the rep then starts its own). */
  ready: Promise<Docker.Container | null>;
  timer: NodeJS.Timeout;
}

/** Where a rep's container is made ahead: the host's prewarmer and the host's id. */
export interface PrewarmTarget {
  warm: RepPrewarmer;
  host: string;
}

/** The containers made ahead for the reps of one runner's hosts. */
export class RepPrewarmer {
  /** Oldest first: reps take them in the order they were made. */
  private waiting: WaitingContainer[] = [];
  private readonly removals = new Set<Promise<void>>();
  private createdCount = 0;
  private takenCount = 0;

  constructor(private readonly options: PrewarmOptions = {}) {}

  /**
   * The oldest container made ahead for `prepared` on `host` (waiting for it if it is still
   * being made), or undefined when there is none or making it failed. It is started.
   */
  async take(
    host: string,
    prepared: PreparedItem,
    owner?: ContainerOwner,
  ): Promise<Docker.Container | undefined> {
    const key = waitingKey(host, prepared, owner);
    const index = this.waiting.findIndex((entry) => entry.key === key);
    const entry = index >= 0 ? this.waiting.splice(index, 1)[0] : undefined;
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    const container = await entry.ready;
    // One that died while it waited (killed, the engine restarted) would only fail its rep.
    if (!container || !(await isRunning(container))) {
      if (container) await removeContainer(entry.docker, container.id).catch(() => undefined);
      return undefined;
    }
    this.takenCount += 1;
    return container;
  }

  /** Starts making the next rep's container for `prepared` on `host` in the background. */
  prepareNext(host: string, docker: Docker, prepared: PreparedItem, owner?: ContainerOwner): void {
    const ready = makeStarted(docker, prepared, owner);
    const entry: WaitingContainer = {
      key: waitingKey(host, prepared, owner),
      host,
      study: owner?.study,
      docker,
      ready,
      timer: setTimeout(() => this.discard([entry]), this.options.idleMs ?? 120_000),
    };
    // The engine may exit with one waiting: `drain` (or orphan cleanup) removes it.
    entry.timer.unref();
    this.createdCount += 1;
    this.waiting.push(entry);
    const limit = Math.max(1, this.options.limit?.() ?? 1);
    if (this.waiting.length > limit)
      this.discard(this.waiting.slice(0, this.waiting.length - limit));
  }

  /** Removes the waiting containers of every study not in `studyIds` (paused, cancelled, done). */
  retain(studyIds: readonly string[]): void {
    if (this.waiting.length === 0) return;
    const keep = new Set(studyIds);
    this.discard(
      this.waiting.filter((entry) => entry.study !== undefined && !keep.has(entry.study)),
    );
  }

  /** Forgets the waiting containers of a host that went down (they died with its engine). */
  forgetHost(host: string): void {
    this.discard(this.waiting.filter((entry) => entry.host === host));
  }

  /** Removes every waiting container and resolves once each is gone. */
  async drain(): Promise<void> {
    this.discard(this.waiting);
    while (this.removals.size > 0) await Promise.all([...this.removals]);
  }

  /** Containers made ahead so far, and how many of them a rep took. */
  counts(): { created: number; taken: number; waiting: number } {
    return { created: this.createdCount, taken: this.takenCount, waiting: this.waiting.length };
  }

  private discard(entries: readonly WaitingContainer[]): void {
    const gone = new Set(entries);
    this.waiting = this.waiting.filter((entry) => !gone.has(entry));
    for (const entry of gone) {
      clearTimeout(entry.timer);
      const removal = entry.ready
        .then((container) => (container ? removeContainer(entry.docker, container.id) : undefined))
        // Best effort: a container that cannot be removed now is an orphan for the next start.
        .catch(() => undefined)
        .finally(() => this.removals.delete(removal));
      this.removals.add(removal);
    }
  }
}

function waitingKey(host: string, prepared: PreparedItem, owner?: ContainerOwner): string {
  return JSON.stringify([host, prepared.image, prepared.itemId, prepared.settings, owner ?? {}]);
}

/** Creates and starts a container; null (and nothing left behind) when either fails. */
async function makeStarted(
  docker: Docker,
  prepared: PreparedItem,
  owner?: ContainerOwner,
): Promise<Docker.Container | null> {
  let container: Docker.Container;
  try {
    container = await createRepContainer(docker, prepared, owner, true);
  } catch {
    return null;
  }
  try {
    await startRepContainer(container);
    return container;
  } catch {
    await removeContainer(docker, container.id).catch(() => undefined);
    return null;
  }
}

async function isRunning(container: Docker.Container): Promise<boolean> {
  try {
    const info = await withDockerDeadline((abortSignal) => container.inspect({ abortSignal }));
    return info.State.Running;
  } catch {
    return false;
  }
}
