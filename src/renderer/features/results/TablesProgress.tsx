import { useEffect, useState } from 'react';
import type { LabEventData } from '../../../shared/lab-api';
import { onLabEvent } from '../../lib/lab-events';

type TablesEvent = LabEventData<'study.tables'>;

/** "Drawing tables from 70,560 reps: 5 of 16" while the study's tables are being drawn. */
export function tablesProgressText(event: TablesEvent): string {
  const reps = `${event.reps.toLocaleString('en-US')} ${event.reps === 1 ? 'rep' : 'reps'}`;
  return `Drawing tables from ${reps}: ${event.done} of ${event.total}`;
}

/**
 * The engine draws a study's tables off its thread (after a run, or on start for a study whose
 * stored tables are stale): while it does, this line says how far it is instead of a blank page.
 * It follows `study.tables` events for the study on screen and goes once the drawing ends.
 */
export function TablesProgress({ studyId }: { studyId: string }) {
  const [event, setEvent] = useState<TablesEvent | null>(null);
  useEffect(() => {
    return onLabEvent('study.tables', (data) => {
      if (data.studyId !== studyId) return;
      // The last event (all drawn, or failed: the tables' own answers say why) ends the line.
      setEvent(data.error !== undefined || data.done >= data.total ? null : data);
    });
  }, [studyId]);
  // A line left from the study shown before is not this study's.
  if (event?.studyId !== studyId) return null;
  return (
    <div
      className="banner banner-info results-tables-progress"
      role="status"
      data-testid="tables-progress"
    >
      <progress max={event.total} value={event.done} aria-hidden="true" />
      <span>{tablesProgressText(event)}</span>
    </div>
  );
}
