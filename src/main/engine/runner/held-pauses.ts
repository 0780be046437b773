/**
 * Pauses the runner could not write yet (item 12 in serve mode): when the disk is
 * full, a study's pause cannot be stored, yet the window must show why it stopped. The reason
 * is held here in memory and laid over what the database says until the database says it too
 * (the runner writes it once space returns).
 */
import type { StudyProgress } from '../../../shared/study-progress';

/** Held pause reasons by study id. */
export class HeldPauses {
  private readonly reasons = new Map<string, string>();

  /** Holds `reason` for each of `studyIds`. */
  hold(studyIds: readonly string[], reason: string): void {
    for (const id of studyIds) this.reasons.set(id, reason);
  }

  /**
   * `progress` as the window should see it: paused with the held reason while the database
   * still shows the study running; the hold ends once the stored status has moved on.
   */
  apply(progress: StudyProgress): StudyProgress {
    const reason = this.reasons.get(progress.studyId);
    if (reason === undefined) return progress;
    if (progress.status !== 'running' && progress.status !== 'queued') {
      this.reasons.delete(progress.studyId);
      return progress;
    }
    return { ...progress, status: 'paused', pausedReason: reason };
  }
}
