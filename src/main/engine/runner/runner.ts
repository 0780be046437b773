/**
 * The study runner: N workers that claim jobs from SQLite, execute them and record the
 * outcome. Any number of runners (engine processes, CLI runs) can share a workspace: claims
 * are transactions with leases, completions are compare-and-swap on the lease id.
 */
import { describeStorageFailure, isStorageFailure, inTransaction } from '../store';
import {
  cancelJob,
  claimJob,
  completeJob,
  failJob,
  openJobCount,
  releaseJob,
  releaseOwnedJobs,
  renewLease,
  runningByStudy,
  runningStudyIds,
  type ClaimedJob,
  uncuedArmsWithoutMajority,
} from '../store/faces/jobs';
import { completeIfDone, pauseStudy, studyStatus } from '../store/faces/studies';
import { isUncuedControlKey } from './conditions';
import { executeJob, type ExecuteDeps, type LoadedStudy } from './execute';
import { pauseAtCostCap } from './cost-cap';
import { crashPoint } from './crash-points';
import { dockerPausesFor, type DockerPauses } from './docker-pause';
import { failureAction } from './failures';
import { removeKeptSnapshots, type DockerHealth } from '../environments';
import { onUncuedFinished } from './scheduling';
import { drawIfStopped, type TableDrawing } from './draw-stopped';
import { GroupCommit, type GroupCommitStats } from './group-commit';

/** Options of a runner. */
export interface RunnerOptions {
  /** Workers (reps in flight at once). */
  concurrency: number;
  /** Only these studies; all running studies of the workspace when absent. */
  studyIds?: string[];
  /** Process id recorded on leases; a lease of a dead process is reclaimed at once. */
  owner?: number;
  leaseMs?: number;
  /** How long an idle worker waits before looking for work again. */
  pollMs?: number;
  /** Attempts before a job fails for good. */
  maxAttempts?: number;
  /** Called after every state change of a study (progress events). */
  onChange?: (studyId: string) => void;
  /**
   * A database failure stopped the runner: `reason` ("disk full at …") for `studyIds`, said
   * at once, before the pause can be written (the window shows it from memory meanwhile).
   */
  onStorageFault?: (studyIds: string[], reason: string) => void;
  /** How often a study paused because Docker is down asks whether it is back (ms). */
  dockerRecheckMs?: number;
}

/** What the runner needs: job execution plus loading studies. */
export interface RunnerDeps extends ExecuteDeps, TableDrawing {
  loadStudy(studyId: string): LoadedStudy;
  /**
   * Rep containers made ahead of their reps (environments/docker/prewarm.ts): the runner keeps
   * only those of running studies and removes the rest when it stops.
   */
  warmContainers?: { retain(studyIds: readonly string[]): void; drain(): Promise<void> };
  /**
   * Whether Docker can serve reps now (a patient ping): a rep of a Docker item that failed
   * while it cannot pauses its study, unspent, until it can (docker-pause.ts).
   */
  dockerHealth?: () => Promise<DockerHealth>;
}

/** A running set of workers; `stop()` lets in-flight reps end and releases nothing half-done. */
export class StudyRunner {
  private readonly controllers = new Map<number, AbortController>();
  private readonly studies = new Map<string, LoadedStudy>();
  private stopping = false;
  private fault: { reason: string } | null = null;
  /** The last storage fault that paused studies (for the CLI's exit message). */
  lastFault: string | null = null;
  private workers: Promise<void>[] = [];
  private idleResolvers: (() => void)[] = [];
  private readonly sleepers = new Set<() => void>();
  private readonly dockerPauses: DockerPauses | undefined;
  /** Reps finishing in the same turn are stored in one transaction (group-commit.ts). */
  private readonly commits: GroupCommit;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly options: RunnerOptions,
  ) {
    this.commits = new GroupCommit(deps.store);
    this.dockerPauses = dockerPausesFor(deps.store, deps.dockerHealth, {
      ...(options.studyIds ? { studyIds: options.studyIds } : {}),
      ...(options.dockerRecheckMs ? { recheckMs: options.dockerRecheckMs } : {}),
      onChange: (ids) => {
        ids.forEach((id) => this.options.onChange?.(id));
        this.wakeIdle();
      },
    });
  }

  /** Starts the workers (and the watch that resumes studies paused while Docker was down). */
  start(): void {
    for (let index = 0; index < this.options.concurrency; index += 1)
      this.workers.push(this.work());
    this.dockerPauses?.start();
  }

  /**
   * Resolves when the selected studies have no runnable or running job (CLI runs), or when a
   * storage fault stopped the runner and no rep is in flight (read `storageProblem`).
   */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => this.idleResolvers.push(resolve));
  }

  /** Stops claiming, aborts in-flight reps (their jobs go back to the queue) and waits. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.dockerPauses?.stop();
    this.wakeIdle();
    for (const controller of this.controllers.values())
      controller.abort(new Error('runner stopped'));
    await Promise.all(this.workers);
    // No rep is left to take them: nothing made ahead may outlive the run.
    await this.deps.warmContainers?.drain();
    await removeKeptSnapshots();
  }

  /**
   * The database failure that stopped this runner (e.g. "disk full at …"), while it lasts: it
   * clears once the affected studies could be marked paused with that reason.
   */
  get storageProblem(): string | null {
    return this.fault?.reason ?? null;
  }

  /** How many transactions stored this runner's reps, and how many reps they held. */
  get commitStats(): GroupCommitStats {
    return { ...this.commits.stats };
  }

  private async work(): Promise<void> {
    const pollMs = this.options.pollMs ?? 200;
    let emptyClaims = 0;
    while (!this.stopping) {
      try {
        if (this.fault) {
          this.settleFault();
          if (this.fault && this.controllers.size === 0) this.resolveIdle();
          await sleep(Math.max(pollMs, 500));
          continue;
        }
        crashPoint('before-claim');
        const job = this.claim();
        if (!job) {
          if (
            this.controllers.size === 0 &&
            openJobCount(this.deps.store, this.options.studyIds) === 0
          ) {
            // A study left with nothing to run (its runner died before marking it) ends now.
            for (const id of this.servedStudyIds())
              if (completeIfDone(this.deps.store, id)) await drawIfStopped(this.deps, id);
            this.resolveIdle();
          }
          // Idle workers back off (up to idleCeilingMs) and are woken when a rep of this
          // runner ends (see below): at concurrency 32 the queue's tail otherwise has every
          // idle worker claiming 1/pollMs times a second, taking the CPU the reps still in
          // flight need.
          await this.idle(Math.min(pollMs * 2 ** emptyClaims, idleCeilingMs(pollMs)));
          emptyClaims += 1;
          continue;
        }
        emptyClaims = 0;
        // This worker claims again at once, taking the slot its rep freed; idle workers are
        // woken all only when the rep queued new work (cued reps), else one, in case. At 32
        // workers, waking all on every rep end had the queue's tail claim ~c²/2 times for
        // nothing, on the CPU the reps still in flight need.
        if ((await this.run(job)) > 0) this.wakeIdle();
        else this.wakeOne();
      } catch (error) {
        // A worker never dies: a database failure stops claiming and is reported; anything
        // else (a busy lock past its timeout) is tried again after a pause.
        if (isStorageFailure(error)) this.enterFault(error);
        await sleep(pollMs);
      }
    }
  }

  private claim(): ClaimedJob | null {
    const { store } = this.deps;
    const perJudge: Record<string, number> = {};
    const excludeStudies: string[] = [];
    const running = runningByStudy(store);
    const runningIds = runningStudyIds(store);
    // A paused, cancelled or finished study's containers made ahead go now, not at stop.
    this.deps.warmContainers?.retain(runningIds);
    for (const studyId of runningIds) {
      if (this.options.studyIds && !this.options.studyIds.includes(studyId)) continue;
      const { spec } = this.loaded(studyId);
      for (const judge of spec.judges) {
        if (judge.concurrency !== undefined) {
          perJudge[judge.id] = Math.min(perJudge[judge.id] ?? Infinity, judge.concurrency);
        }
      }
      const limit = Math.min(spec.concurrency.total, spec.concurrency.containers);
      if ((running.get(studyId) ?? 0) >= limit) excludeStudies.push(studyId);
    }
    return claimJob(store, this.owner, this.options.leaseMs ?? 30_000, {
      perJudge,
      excludeStudies,
      ...(this.options.studyIds ? { onlyStudies: this.options.studyIds } : {}),
    });
  }

  /** The running studies this runner serves. */
  private servedStudyIds(): string[] {
    return runningStudyIds(this.deps.store).filter(
      (id) => !this.options.studyIds || this.options.studyIds.includes(id),
    );
  }

  private get owner(): number {
    return this.options.owner ?? process.pid;
  }

  private loaded(studyId: string): LoadedStudy {
    let study = this.studies.get(studyId);
    if (!study) {
      study = this.deps.loadStudy(studyId);
      this.studies.set(studyId, study);
      this.reconcileMajorities(study);
    }
    return study;
  }

  /**
   * Fixes the majority (and queues the cued reps) of every item whose uncued reps all ended
   * without it: a runner that died between storing the last uncued rep and fixing the
   * majority left them so, and nothing else would ever queue them.
   */
  private reconcileMajorities(study: LoadedStudy): void {
    const pending = uncuedArmsWithoutMajority(this.deps.store, study.id, study.spec.dimension);
    for (const arm of pending)
      this.uncuedFinished(study, arm.itemId, arm.judgeId, arm.conditionKey);
  }

  /** Runs a claimed job; resolves to how many jobs its end queued (> 0 after any failure). */
  private async run(job: ClaimedJob): Promise<number> {
    const { store } = this.deps;
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const leaseMs = this.options.leaseMs ?? 30_000;
    const heartbeat = setInterval(
      () => {
        try {
          const lost = !renewLease(store, job, leaseMs);
          const { status } = studyStatus(store, job.studyId);
          if (lost || status === 'cancelled')
            controller.abort(new Error(lost ? 'lease lost' : 'study cancelled'));
        } catch (error) {
          if (isStorageFailure(error)) this.enterFault(error);
          else controller.abort(error);
        }
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const started = Date.now();
    try {
      const study = this.loaded(job.studyId);
      await executeJob(this.deps, study, job, controller.signal, {
        // Same transaction as the stored rep: a crash leaves both or neither.
        complete: (repId) => {
          if (!completeJob(store, job, repId, Date.now() - started)) throw new LeaseLostError();
        },
        group: this.commits,
      });
      crashPoint('after-store');
      const queued = isUncuedControlKey(job.conditionKey)
        ? this.uncuedFinished(study, job.itemId, job.judgeId, job.conditionKey)
        : 0;
      pauseAtCostCap(store, study);
      completeIfDone(store, study.id);
      this.options.onChange?.(study.id);
      // Before this rep's controller goes, so `whenIdle` waits for the tables too.
      await drawIfStopped(this.deps, study.id);
      return queued;
    } catch (error) {
      if (error instanceof LeaseLostError) return 0;
      try {
        // Docker down is the study's condition, never the rep's: pause, nothing spent.
        const study = this.loaded(job.studyId);
        if (
          this.fault ||
          !(await this.dockerPauses?.pauseIfDown(study, job, error, controller.signal))
        )
          this.handleFailure(job, error, controller.signal);
      } catch (writeError) {
        // Recording the failure needs the database too; if that fails, so be it: the job
        // keeps its lease, which expires, and the fault below pauses the study.
        if (!isStorageFailure(writeError)) throw writeError;
        this.enterFault(writeError);
      }
      this.options.onChange?.(job.studyId);
      // Not after a storage fault: the disk cannot take the tables then.
      if (!this.fault) await drawIfStopped(this.deps, job.studyId);
      // Counted as new work: a failure may have fixed a majority, or put its job back.
      return 1;
    } finally {
      clearInterval(heartbeat);
      this.controllers.delete(job.id);
    }
  }

  private handleFailure(job: ClaimedJob, error: unknown, signal: AbortSignal): void {
    const { store } = this.deps;
    if (this.fault || isStorageFailure(error)) {
      if (isStorageFailure(error)) this.enterFault(error);
      releaseJob(store, job);
      return;
    }
    if (signal.aborted) {
      const { status } = studyStatus(store, job.studyId);
      if (status === 'cancelled') cancelJob(store, job);
      else releaseJob(store, job);
      return;
    }
    const action = failureAction(error, job.attempts);
    if (action.kind === 'storage') return; // handled above
    if (action.kind === 'pause') {
      releaseJob(store, job);
      pauseStudy(store, job.studyId, `judge ${job.judgeId}: ${action.message}`);
      return;
    }
    const maxAttempts = this.options.maxAttempts ?? 4;
    if (action.kind === 'fail' || job.attempts >= maxAttempts) {
      failJob(store, job, action.message, null);
      // The reps that did finish may fix the majority and open the cued arm: queue it first,
      // or a study whose last open job was this control completes with its cued jobs unrun.
      if (isUncuedControlKey(job.conditionKey))
        this.uncuedFinished(this.loaded(job.studyId), job.itemId, job.judgeId, job.conditionKey);
      completeIfDone(store, job.studyId);
      return;
    }
    failJob(store, job, action.message, action.delayMs);
  }

  private uncuedFinished(
    study: LoadedStudy,
    itemId: string,
    judgeId: string,
    controlKey: string,
  ): number {
    const conditions = [...study.conditions.values()];
    const { store } = this.deps;
    return onUncuedFinished(store, study.id, study.spec, conditions, itemId, judgeId, controlKey);
  }

  /** Stops claiming and aborts the reps in flight: nothing more can be stored for now. */
  private enterFault(error: unknown): void {
    if (this.fault) return;
    const { store } = this.deps;
    this.fault = { reason: describeStorageFailure(error, store.path) };
    for (const controller of this.controllers.values()) controller.abort(error);
    try {
      this.options.onStorageFault?.(this.servedStudyIds(), this.fault.reason);
    } catch {
      // Telling is best effort: the pause itself is written by settleFault.
    }
  }

  /**
   * Once no rep is in flight, marks this runner's studies paused with the fault's reason and
   * gives their leased jobs back to the queue. Writing may still fail (the disk is still
   * full): then it is tried again on the next round, and the jobs' leases expire meanwhile.
   */
  private settleFault(): void {
    const fault = this.fault;
    if (!fault || this.controllers.size > 0) return;
    const { store } = this.deps;
    try {
      const studies = this.servedStudyIds();
      inTransaction(store, () => {
        releaseOwnedJobs(store, this.owner, this.options.studyIds);
        for (const id of studies) pauseStudy(store, id, fault.reason);
      });
      this.fault = null;
      this.lastFault = fault.reason;
      for (const id of studies) this.options.onChange?.(id);
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
    }
  }

  /** Sleeps `ms`, or less if a rep of this runner ends (or the runner stops) meanwhile. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private wakeIdle(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  private wakeOne(): void {
    const first = this.sleepers.values().next();
    if (!first.done) first.value();
  }

  private resolveIdle(): void {
    const resolvers = this.idleResolvers;
    this.idleResolvers = [];
    for (const resolve of resolvers) resolve();
  }
}

/** Another worker owns the job now; this rep's result is discarded (rolled back). */
class LeaseLostError extends Error {
  constructor() {
    super('the job lease was lost to another worker');
  }
}

/**
 * The longest an idle worker waits before looking again: work queued by another process (a
 * resumed study, another runner) is still picked up within half a second.
 */
function idleCeilingMs(pollMs: number): number {
  return Math.max(pollMs, 500);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
