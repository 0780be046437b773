/**
 * The Results page's lines about a study's tables (TablesProgress.tsx): the drawing's progress,
 * and what out-of-date tables on screen cover. Pure, so they are tested without a window.
 */
import type { LabEventData } from '../../../shared/lab-api';
import type { ReportTableData } from '../../charts/table-values';

type TablesEvent = LabEventData<'study.tables'>;

/** What an out-of-date table covers (the engine's `outdated` mark). */
type Outdated = NonNullable<ReportTableData['outdated']>;

function repsText(reps: number): string {
  return `${reps.toLocaleString('en-US')} ${reps === 1 ? 'rep' : 'reps'}`;
}

/** "Drawing tables from 70,560 reps: 5 of 16" while the study's tables are being drawn. */
export function tablesProgressText(event: TablesEvent): string {
  return `Drawing tables from ${repsText(event.reps)}: ${event.done} of ${event.total}`;
}

/**
 * "Drawn from 70,400 of 70,560 reps at 14:02, Dec 4; updating… 5 of 16 tables": what the
 * tables on screen cover while the current ones are drawn (`drawing` is the drawing's last
 * event, if one came), or why they could not be.
 */
export function outdatedText(
  outdated: Outdated,
  drawing: TablesEvent | null,
  locale?: string,
): string {
  const when = new Date(outdated.drawnAt).toLocaleString(locale, {
    hour: '2-digit',
    minute: '2-digit',
    month: 'short',
    day: 'numeric',
  });
  const covered =
    outdated.drawnFromReps <= outdated.studyReps
      ? `Drawn from ${outdated.drawnFromReps.toLocaleString('en-US')} of ${repsText(outdated.studyReps)}`
      : `Drawn from ${repsText(outdated.drawnFromReps)} (the study now has ${outdated.studyReps.toLocaleString('en-US')})`;
  if (drawing?.error !== undefined)
    return `${covered} at ${when}; the current tables could not be drawn: ${drawing.error}`;
  const progress =
    drawing && drawing.done < drawing.total ? ` ${drawing.done} of ${drawing.total} tables` : '';
  return `${covered} at ${when}; updating…${progress}`;
}
