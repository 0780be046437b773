/**
 * The study runner: N workers that claim jobs from SQLite, execute them and record the
 * outcome. Any number of runners (engine processes, CLI runs) can share a workspace: claims
 * are transactions with leases, completions are compare-and-swap on the lease id.
 */
import { EngineError } from '../errors';
import { ProviderError } from '../providers/types';
import { uncuedKey } from './conditions';
import { executeJob, type ExecuteDeps, type LoadedStudy } from './execute';
import {
  claimJob,
  completeJob,
  failJob,
  openJobCount,
  releaseJob,
  renewLease,
  runningByStudy,
  runningStudyIds,
  type ClaimedJob,
} from './jobs';
import { onUncuedFinished } from './scheduling';
import { completeIfDone, pauseStudy, studyCost, studyStatus } from './study-state';

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
}

/** What the runner needs: job execution plus loading studies. */
export interface RunnerDeps extends ExecuteDeps {
  loadStudy(studyId: string): LoadedStudy;
}

/** A running set of workers; `stop()` lets in-flight reps end and releases nothing half-done. */
export class StudyRunner {
  private readonly controllers = new Map<number, AbortController>();
  private readonly studies = new Map<string, LoadedStudy>();
  private stopping = false;
  private workers: Promise<void>[] = [];
  private idleResolvers: (() => void)[] = [];

  constructor(
    private readonly deps: RunnerDeps,
    private readonly options: RunnerOptions,
  ) {}

  /** Starts the workers. */
  start(): void {
    for (let index = 0; index < this.options.concurrency; index += 1)
      this.workers.push(this.work());
  }

  /** Resolves when the selected studies have no runnable or running job (CLI runs). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => this.idleResolvers.push(resolve));
  }

  /** Stops claiming, aborts in-flight reps (their jobs go back to the queue) and waits. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const controller of this.controllers.values())
      controller.abort(new Error('runner stopped'));
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    const pollMs = this.options.pollMs ?? 200;
    while (!this.stopping) {
      const job = this.claim();
      if (!job) {
        if (
          this.controllers.size === 0 &&
          openJobCount(this.deps.store, this.options.studyIds) === 0
        ) {
          this.resolveIdle();
        }
        await sleep(pollMs);
        continue;
      }
      await this.run(job);
    }
  }

  private claim(): ClaimedJob | null {
    const { store } = this.deps;
    const perJudge: Record<string, number> = {};
    const excludeStudies: string[] = [];
    const running = runningByStudy(store);
    for (const studyId of runningStudyIds(store)) {
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
    return claimJob(store, this.options.owner ?? process.pid, this.options.leaseMs ?? 30_000, {
      perJudge,
      excludeStudies,
      ...(this.options.studyIds ? { onlyStudies: this.options.studyIds } : {}),
    });
  }

  private loaded(studyId: string): LoadedStudy {
    let study = this.studies.get(studyId);
    if (!study) {
      study = this.deps.loadStudy(studyId);
      this.studies.set(studyId, study);
    }
    return study;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { store } = this.deps;
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const leaseMs = this.options.leaseMs ?? 30_000;
    const heartbeat = setInterval(
      () => {
        const lost = !renewLease(store, job, leaseMs);
        const { status } = studyStatus(store, job.studyId);
        if (lost || status === 'cancelled')
          controller.abort(new Error(lost ? 'lease lost' : 'study cancelled'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const started = Date.now();
    try {
      const study = this.loaded(job.studyId);
      await executeJob(this.deps, study, job, controller.signal, (repId) => {
        // Same transaction as the stored rep: a crash leaves both or neither.
        if (!completeJob(store, job, repId, Date.now() - started)) throw new LeaseLostError();
      });
      if (job.conditionKey === uncuedKey) {
        onUncuedFinished(
          store,
          study.id,
          study.spec,
          [...study.conditions.values()],
          job.itemId,
          job.judgeId,
        );
      }
      this.checkCostCap(study);
      completeIfDone(store, study.id);
      this.options.onChange?.(study.id);
    } catch (error) {
      if (error instanceof LeaseLostError) return;
      this.handleFailure(job, error, controller.signal);
      this.options.onChange?.(job.studyId);
    } finally {
      clearInterval(heartbeat);
      this.controllers.delete(job.id);
    }
  }

  private handleFailure(job: ClaimedJob, error: unknown, signal: AbortSignal): void {
    const { store } = this.deps;
    const message = error instanceof Error ? error.message : String(error);
    if (signal.aborted) {
      const { status } = studyStatus(store, job.studyId);
      if (status === 'cancelled') failJob(store, job, 'cancelled', null);
      else releaseJob(store, job);
      return;
    }
    if (error instanceof ProviderError && !error.retryable) {
      // A rejected key or unknown model will fail every rep alike: stop and say why.
      releaseJob(store, job);
      pauseStudy(store, job.studyId, `judge ${job.judgeId}: ${message}`);
      return;
    }
    if (error instanceof EngineError && error.code === 'engine_unreachable') {
      releaseJob(store, job);
      pauseStudy(store, job.studyId, message);
      return;
    }
    const maxAttempts = this.options.maxAttempts ?? 4;
    if (job.attempts >= maxAttempts) {
      failJob(store, job, message, null);
      completeIfDone(store, job.studyId);
      if (job.conditionKey === uncuedKey) {
        const study = this.loaded(job.studyId);
        onUncuedFinished(
          store,
          study.id,
          study.spec,
          [...study.conditions.values()],
          job.itemId,
          job.judgeId,
        );
      }
      return;
    }
    const retryAfter = error instanceof ProviderError ? error.retryAfterMs : undefined;
    failJob(
      store,
      job,
      message,
      Math.max(retryAfter ?? 0, Math.min(60_000, 1000 * 2 ** (job.attempts - 1))),
    );
  }

  private checkCostCap(study: LoadedStudy): void {
    const cap = study.spec.costCapUsd;
    if (cap === undefined) return;
    const { usd } = studyCost(this.deps.store, study.id);
    if (usd >= cap) {
      pauseStudy(
        this.deps.store,
        study.id,
        `cost cap reached: $${usd.toFixed(2)} spent of the $${cap.toFixed(2)} cap. Raise costCapUsd and resume to go on.`,
      );
    }
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
