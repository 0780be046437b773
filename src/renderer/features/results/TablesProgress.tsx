import { useEffect, useState } from 'react';
import type { LabEventData } from '../../../shared/lab-api';
import type { ReportTableData } from '../../charts/table-values';
import { onLabEvent } from '../../lib/lab-events';
import { useLab } from '../../store';
import { outdatedText, tablesProgressText } from './tables-progress-text';

type TablesEvent = LabEventData<'study.tables'>;

/** The first shown table that is out of date: what it covers (all were drawn together). */
function firstOutdated(tables: Readonly<Record<string, ReportTableData | undefined>>) {
  for (const table of Object.values(tables)) if (table?.outdated) return table.outdated;
  return null;
}

/**
 * The engine draws a study's tables off its thread (after a run, or on start for a study whose
 * stored tables are stale): while it does, this line says how far it is instead of a blank page.
 * When the page shows tables drawn before the study's last reps landed (a run interrupted by
 * quitting), it says so, with what they cover, until the current tables replace them.
 * It follows `study.tables` events for the study on screen and goes once the drawing ends.
 */
export function TablesProgress({ studyId }: { studyId: string }) {
  const [event, setEvent] = useState<TablesEvent | null>(null);
  const outdated = useLab((state) =>
    state.resultsStudyId === studyId ? firstOutdated(state.resultTables) : null,
  );
  useEffect(() => {
    return onLabEvent('study.tables', (data) => {
      if (data.studyId !== studyId) return;
      // The last event of a drawing ends the progress line; a failure stays said while the
      // tables on screen are out of date (the tables' own answers say it too).
      const ended = data.error === undefined && data.done >= data.total;
      setEvent(ended ? null : data);
    });
  }, [studyId]);
  // A line left from the study shown before is not this study's.
  const drawing = event?.studyId === studyId ? event : null;
  if (outdated) {
    return (
      <div
        className={`banner ${drawing?.error === undefined ? 'banner-warning' : 'banner-error'} results-tables-progress`}
        role="status"
        data-testid="tables-outdated"
      >
        {drawing && drawing.error === undefined && (
          <progress max={drawing.total} value={drawing.done} aria-hidden="true" />
        )}
        <span>{outdatedText(outdated, drawing)}</span>
      </div>
    );
  }
  if (!drawing || drawing.error !== undefined) return null;
  return (
    <div
      className="banner banner-info results-tables-progress"
      role="status"
      data-testid="tables-progress"
    >
      <progress max={drawing.total} value={drawing.done} aria-hidden="true" />
      <span>{tablesProgressText(drawing)}</span>
    </div>
  );
}
