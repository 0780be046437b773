/** The side panel: the reps workbench, opened on the reps behind a clicked cell or bar. */
import { useEffect, useRef } from 'react';
import { useLab } from '../../store';
import { RepsWorkbench } from './RepsWorkbench';

/** The panel, when a mark was clicked. */
export function RepsPanel() {
  const panel = useLab((state) => state.repsPanel);
  const close = useLab((state) => state.closeRepsPanel);
  const studyId = useLab((state) => state.resultsStudyId);
  const closeRef = useRef<HTMLButtonElement>(null);
  const open = panel !== null;

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);

  if (!panel || !studyId) return null;
  const { query } = panel;
  const filters = [
    query.judgeId ? `judge ${query.judgeId}` : 'all judges',
    query.dataset ? `dataset ${query.dataset}` : 'all datasets',
    query.conditionKeys ? `conditions ${query.conditionKeys.join(', ')}` : 'all conditions',
  ];
  // The clicked mark's cued condition seeds the condition filter (its control is one click away).
  const cued = (query.conditionKeys ?? []).filter((key) => key !== 'uncued');
  const initial = {
    ...(query.judgeId ? { judgeId: query.judgeId } : {}),
    ...(query.dataset ? { dataset: query.dataset } : {}),
    ...(cued.length === 1 ? { conditionKey: cued[0] } : {}),
  };
  return (
    <aside className="reps-panel" aria-label="Reps behind the selection" data-testid="reps-panel">
      <header className="reps-panel-head">
        <div>
          <h2>{query.title}</h2>
          <p className="muted">{filters.join(' · ')}</p>
        </div>
        <button ref={closeRef} type="button" className="button" onClick={close}>
          Close
        </button>
      </header>
      <RepsWorkbench key={JSON.stringify(query)} studyId={studyId} initial={initial} />
    </aside>
  );
}
