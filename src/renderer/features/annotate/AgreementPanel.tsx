/** Table 10 for the study: classifiers against each annotator and gold, human agreement below. */
import { useLab } from '../../store';
import { loadedValue } from '../../lib/loadable';
import type { ReportTable } from './annotate-slice';

type Cell = ReportTable['rows'][number][string];

function cellText(value: Cell | undefined, unit: string | undefined, digits?: number): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return value;
  if (unit === '%') return `${value.toFixed(digits ?? 1)}%`;
  if (unit === 'r') return value.toFixed(digits ?? 3);
  return Number.isInteger(value) ? String(value) : value.toFixed(digits ?? 2);
}

/** The agreement panel; refetched by the slice after every saved label. */
export function AgreementPanel() {
  const agreement = useLab((state) => state.annotateAgreement);
  const table = loadedValue(agreement);
  return (
    <section className="agreement panel" data-testid="agreement" aria-labelledby="agreement-title">
      <div className="agreement-head">
        <h2 id="agreement-title">Agreement (Table 10)</h2>
        {table?.simulated && <span className="badge badge-simulated">simulated</span>}
        <span className="muted">
          {agreement.state === 'loading'
            ? 'Updating…'
            : table
              ? `${table.reps} labelled flips`
              : ''}
        </span>
      </div>
      {agreement.state === 'failed' && (
        <p className="banner banner-error" role="alert">
          Could not compute agreement: {agreement.error}
        </p>
      )}
      {table && (
        <>
          {table.rows.length > 0 ? (
            <div className="agreement-scroll">
              <table className="data-table agreement-table">
                <thead>
                  <tr>
                    {table.columns.map((column) => (
                      <th key={column.key} scope="col">
                        {column.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row, index) => (
                    <tr
                      key={index}
                      data-testid="agreement-row"
                      data-classifier={String(row.classifier ?? '')}
                    >
                      {table.columns.map((column) => (
                        <td
                          key={column.key}
                          className={typeof row[column.key] === 'number' ? 'numeric' : undefined}
                        >
                          {cellText(row[column.key], column.unit, column.digits)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted">No classifier labels to compare yet.</p>
          )}
          <ul className="agreement-notes" data-testid="agreement-notes">
            {table.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
