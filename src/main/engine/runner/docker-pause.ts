/**
 * Docker's health as a study-level condition. A rep that failed while Docker was down (at
 * provisioning, or its container's daemon vanished mid-rep) is no evidence about the rep: its
 * job goes back to the queue unspent and the study pauses with the reason ("Docker is not
 * running …"). While any study is paused so, Docker is asked again every few seconds, and the
 * studies resume once it answers. Restarting the engine with Docker stopped therefore leaves a
 * running study paused with the reason, never failed reps and a "Completed" study.
 */
import {
  DockerDownError,
  findDockerDown,
  isDockerPauseReason,
  specNeedsDocker,
  type DockerHealth,
} from '../environments';
import { ProviderError } from '../providers';
import { isStorageFailure, type Store } from '../store';
import { releaseJob, type ClaimedJob } from '../store/faces/jobs';
import { pausedStudies, pauseRunningStudy, resumeIfPausedFor } from '../store/faces/studies';
import { readsTrajectoryOnly, type LoadedStudy } from './execute';

/** How often a study paused for Docker asks whether Docker is back. */
const defaultRecheckMs = 5000;

/** The Docker watch of a runner whose dependencies can tell Docker's health, else undefined. */
export function dockerPausesFor(
  store: Store,
  health: (() => Promise<DockerHealth>) | undefined,
  options: ConstructorParameters<typeof DockerPauses>[2],
): DockerPauses | undefined {
  return health ? new DockerPauses(store, health, options) : undefined;
}

/** Pauses studies while Docker is down and resumes them when it is back. */
export class DockerPauses {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly store: Store,
    private readonly health: () => Promise<DockerHealth>,
    private readonly options: {
      /** The studies this runner serves (all when undefined). */
      studyIds?: readonly string[];
      recheckMs?: number;
      /** Studies paused or resumed here (progress events, waking idle workers). */
      onChange: (studyIds: string[]) => void;
    },
  ) {}

  /**
   * The Docker outage behind `error`, or undefined when Docker is not to blame: the error says
   * so itself, or the rep's item needs Docker and Docker does not answer now. A provider's or
   * the database's failure, an abort and an item served without Docker are never Docker's.
   */
  async outageBehind(
    study: LoadedStudy,
    job: ClaimedJob,
    error: unknown,
    signal: AbortSignal,
  ): Promise<DockerDownError | undefined> {
    const known = findDockerDown(error);
    if (known) return known;
    if (signal.aborted || isStorageFailure(error) || error instanceof ProviderError) return;
    const item = study.items.get(job.itemId);
    const judge = study.spec.judges.find((entry) => entry.id === job.judgeId);
    if (!item || !specNeedsDocker(item.environment)) return;
    if (judge && readsTrajectoryOnly(judge, item)) return;
    const health = await this.health();
    return health.up ? undefined : new DockerDownError(health);
  }

  /**
   * When Docker is behind `error`: gives the job back unspent, pauses its study (unless it
   * stopped running meanwhile) and returns true. False leaves the failure to the runner.
   */
  async pauseIfDown(
    study: LoadedStudy,
    job: ClaimedJob,
    error: unknown,
    signal: AbortSignal,
  ): Promise<boolean> {
    const outage = await this.outageBehind(study, job, error, signal);
    if (!outage) return false;
    releaseJob(this.store, job);
    if (pauseRunningStudy(this.store, job.studyId, outage.pauseReason)) {
      this.options.onChange([job.studyId]);
    }
    return true;
  }

  /** Starts asking, every few seconds, whether Docker is back for the studies paused for it. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.recheck(), this.options.recheckMs ?? defaultRecheckMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Resumes the studies paused for Docker once it answers; true when any was resumed. */
  async recheck(): Promise<boolean> {
    if (this.checking) return false;
    this.checking = true;
    try {
      const waiting = pausedStudies(this.store).filter(
        (study) =>
          isDockerPauseReason(study.reason) &&
          (!this.options.studyIds || this.options.studyIds.includes(study.id)),
      );
      if (waiting.length === 0) return false;
      if (!(await this.health()).up) return false;
      const resumed = waiting.filter((study) =>
        resumeIfPausedFor(this.store, study.id, study.reason ?? ''),
      );
      if (resumed.length > 0) this.options.onChange(resumed.map((study) => study.id));
      return resumed.length > 0;
    } catch {
      // A busy database or a failed ping: asked again on the next round.
      return false;
    } finally {
      this.checking = false;
    }
  }
}
