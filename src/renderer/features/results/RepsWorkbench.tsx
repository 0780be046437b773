/**
 * The reps workbench inside the reps panel: every rep of the study, filtered (judge, dataset,
 * condition, direction, verdict, flipped, mechanism), sorted by a column, searched over
 * rationales and transcripts in the engine (queryReps), a page at a time. A row opens its
 * transcript; ticking two rows opens them side by side.
 */
import { useEffect, useState } from 'react';
import type { LabRequest, LabResponse } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { useLab } from '../../store';
import { RepFilters, type RepFilterValues } from './RepFilters';
import { RepView } from './RepView';

type Page = LabResponse<'queryReps'>;
type Row = Page['rows'][number];
type SortKey = NonNullable<LabRequest<'queryReps'>['sort']>;

const PAGE = 100;
const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: null, label: 'Pick' },
  { key: 'item', label: 'Item' },
  { key: 'judge', label: 'Judge' },
  { key: 'condition', label: 'Condition' },
  { key: 'rep', label: 'Rep' },
  { key: 'verdict', label: 'Verdict' },
  { key: 'turns', label: 'Turns' },
];

function verdictClass(rep: Row): string {
  if (!rep.verdict || !rep.gold) return '';
  return rep.verdict === rep.gold ? 'rep-correct' : 'rep-wrong';
}

/** The workbench for one study, starting from the filters of the clicked mark. */
export function RepsWorkbench({ studyId, initial }: { studyId: string; initial: RepFilterValues }) {
  const address = useLab((state) => state.address);
  const [filters, setFilters] = useState<RepFilterValues>(initial);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'item',
    descending: false,
  });
  const [rows, setRows] = useState<Row[]>([]);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [opened, setOpened] = useState<Row[] | null>(null);

  async function fetchPage(offset: number) {
    if (!address) return null;
    // Empty fields mean "any" and are left out of the request.
    const chosen = Object.fromEntries(
      Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
    ) as RepFilterValues;
    const request: LabRequest<'queryReps'> = {
      ...chosen,
      studyId,
      sort: sort.key,
      descending: sort.descending,
      offset,
      limit: PAGE,
    };
    return labClientFor(address).queryReps(request);
  }

  useEffect(() => {
    let current = true;
    // Search waits for a pause in typing; the other filters apply at once.
    const timer = setTimeout(() => {
      void fetchPage(0).then((result) => {
        if (!current || !result) return;
        if (!result.ok) return setError(result.error.message);
        setError(null);
        setPage(result.value);
        setRows(result.value.rows);
      });
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // fetchPage reads exactly these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address, studyId, filters, sort]);

  async function more() {
    const result = await fetchPage(rows.length);
    if (!result?.ok) return setError(result ? result.error.message : 'no engine');
    setPage(result.value);
    setRows((before) => [...before, ...result.value.rows]);
  }

  function toggle(repId: string) {
    setPicked((before) =>
      before.includes(repId) ? before.filter((id) => id !== repId) : [...before, repId].slice(-2),
    );
  }

  function sortBy(key: SortKey) {
    setSort((before) => ({
      key,
      descending: before.key === key ? !before.descending : false,
    }));
  }

  if (opened)
    return (
      <RepView
        key={opened.map((rep) => rep.repId).join()}
        reps={opened}
        simulated={page?.simulated ?? false}
        onBack={() => setOpened(null)}
      />
    );
  return (
    <div className="reps-workbench">
      <RepFilters values={filters} facets={page?.facets} onChange={setFilters} />
      {page?.simulated && (
        <p className="muted">
          <span className="badge badge-simulated">SIMULATED</span> synthetic-judge reps
        </p>
      )}
      {error && (
        <div className="banner banner-error" role="alert">
          Could not list the reps: {error}
        </div>
      )}
      {!page && !error && <p className="muted">Listing reps…</p>}
      {page && rows.length === 0 && (
        <div className="reps-empty">
          <p>No stored reps match this selection.</p>
          {page.note && <p className="muted">{page.note}</p>}
        </div>
      )}
      {rows.length > 0 && (
        <div className="reps-count">
          <p className="muted numeric">
            {page?.hasMore ? `${rows.length} reps shown, more below` : `${rows.length} reps`}
          </p>
          <button
            type="button"
            className="button"
            disabled={picked.length !== 2}
            onClick={() => setOpened(rows.filter((rep) => picked.includes(rep.repId)))}
          >
            Side by side ({picked.length}/2)
          </button>
        </div>
      )}
      {rows.length > 0 && (
        <div className="reps-scroll">
          <table className="data-table reps-table">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column.label}
                    scope="col"
                    aria-sort={
                      column.key === sort.key
                        ? sort.descending
                          ? 'descending'
                          : 'ascending'
                        : undefined
                    }
                  >
                    {column.key ? (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => sortBy(column.key as SortKey)}
                      >
                        {column.label}
                        {column.key === sort.key ? (sort.descending ? ' ↓' : ' ↑') : ''}
                      </button>
                    ) : (
                      <span className="visually-hidden">{column.label}</span>
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((rep) => (
                <tr key={rep.repId} data-rep-id={rep.repId}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Pick ${rep.itemId} rep ${rep.rep} for side by side`}
                      checked={picked.includes(rep.repId)}
                      onChange={() => toggle(rep.repId)}
                    />
                  </td>
                  <td className="mono">
                    <button
                      type="button"
                      className="link-button mono"
                      title={`Open the transcript of rep ${rep.repId}`}
                      onClick={() => setOpened([rep])}
                    >
                      {rep.itemId}
                    </button>
                    <span className="rep-direction"> {rep.dataset}</span>
                  </td>
                  <td>{rep.judgeId}</td>
                  <td title={rep.conditionKey}>
                    {rep.conditionKey}
                    {rep.direction && <span className="rep-direction"> {rep.direction}</span>}
                    {rep.flip && <span className={`badge badge-${rep.flip}`}>{rep.flip}</span>}
                    {rep.mechanism && <span className="rep-direction"> {rep.mechanism}</span>}
                  </td>
                  <td className="numeric">{rep.rep}</td>
                  <td className={verdictClass(rep)}>
                    {rep.verdict ?? rep.outcome}
                    <span className="rep-direction"> gold {rep.gold ?? '—'}</span>
                  </td>
                  <td className="numeric">{rep.turns}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page?.hasMore && (
            <button type="button" className="button" onClick={() => void more()}>
              Show {PAGE} more
            </button>
          )}
        </div>
      )}
    </div>
  );
}
