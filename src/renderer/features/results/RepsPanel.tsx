/** The side panel: the stored reps behind a clicked cell or bar (listReps). */
import { useEffect, useRef } from 'react';
import { useLab } from '../../store';
import type { RepSummary } from './results-slice';

function verdictClass(rep: RepSummary): string {
  if (!rep.verdict || !rep.gold) return '';
  return rep.verdict === rep.gold ? 'rep-correct' : 'rep-wrong';
}

/** The panel, when a mark was clicked. */
export function RepsPanel() {
  const panel = useLab((state) => state.repsPanel);
  const close = useLab((state) => state.closeRepsPanel);
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

  if (!panel) return null;
  const { query, reps } = panel;
  const list = reps.state === 'loaded' ? reps.value : [];
  // With one cued condition in the heading, rows say "cued" or "uncued" instead of the key.
  const cued = (query.conditionKeys ?? []).filter((key) => key !== 'uncued');
  const conditionLabel = (key: string) => (cued.length === 1 && key === cued[0] ? 'cued' : key);
  const filters = [
    query.judgeId ? `judge ${query.judgeId}` : 'all judges',
    query.dataset ? `dataset ${query.dataset}` : 'all datasets',
    query.conditionKeys ? `conditions ${query.conditionKeys.join(', ')}` : 'all conditions',
  ];
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
      {reps.state === 'loading' && <p className="muted">Listing reps…</p>}
      {reps.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not list the reps: {reps.error}
        </div>
      )}
      {reps.state === 'loaded' && list.length === 0 && (
        <div className="reps-empty">
          <p>No stored reps match this selection.</p>
          <p className="muted">
            Reps of imported results live in their import, not in the rep store, so the engine lists
            none for them yet; the numbers above come from the imported records.
          </p>
        </div>
      )}
      {list.length > 0 && (
        <>
          <p className="muted numeric">{list.length} reps</p>
          <div className="reps-scroll">
            <table className="data-table reps-table">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  {!query.judgeId && <th scope="col">Judge</th>}
                  <th scope="col">Condition</th>
                  <th scope="col">Rep</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">Gold</th>
                  <th scope="col">Turns</th>
                </tr>
              </thead>
              <tbody>
                {list.map((rep) => (
                  <tr key={rep.repId} title={`${rep.dataset} · rep ${rep.repId}`}>
                    <td className="mono">{rep.itemId}</td>
                    {!query.judgeId && <td>{rep.judgeId}</td>}
                    <td title={rep.conditionKey}>
                      {conditionLabel(rep.conditionKey)}
                      {rep.direction && rep.direction !== 'none' && (
                        <span className="rep-direction"> {rep.direction}</span>
                      )}
                    </td>
                    <td className="numeric">{rep.rep}</td>
                    <td className={verdictClass(rep)}>{rep.verdict ?? rep.outcome}</td>
                    <td>{rep.gold ?? '—'}</td>
                    <td className="numeric">{rep.turns}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </aside>
  );
}
