/**
 * The card around one figure: its name and paper reference, its controls, PNG / SVG / CSV
 * export, a fixed-size body (so nothing jumps while reps stream in), the table's notes, and
 * the notes in place of the figure when the table is empty.
 */
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { labClientFor } from '../lib/engine-client';
import { exportBaseName, exportFigure, exportTableCsv } from '../lib/export/export-figure';
import type { SaveOutcome } from '../lib/export/save-file';
import { labStore } from '../store';
import type { ResultTableName } from './table-values';
import { FIGURE_BAND } from './Figure';
import { ChartTooltip, type TooltipState } from './Tooltip';
import './charts.css';

/** What a chart card needs. */
export interface ChartFrameProps {
  table: ResultTableName;
  studyId: string;
  /** The figure's name in the window, e.g. "Harmful flips by judge × dataset". */
  label: string;
  /** Where it is in the paper, e.g. "Fig. 2". */
  reference: string;
  width: number;
  height: number;
  /** True when the figure has marks to draw. */
  filled: boolean;
  simulated: boolean;
  /** The table's notes: how to read it, or why it is empty. */
  notes: string[];
  /** Shown above the notes when the figure is empty. */
  emptyTitle?: string;
  /** A control under the empty figure's notes, e.g. a button that fills the table. */
  emptyAction?: ReactNode;
  /** Pickers above the figure. */
  controls?: ReactNode;
  /** How to use the figure, shown where pickers would be when it has none. */
  hint?: string;
  svgRef: RefObject<SVGSVGElement | null>;
  tooltip: TooltipState | null;
  children: ReactNode;
}

type ExportKind = 'png' | 'svg' | 'csv';

function describeOutcome(outcome: SaveOutcome, kind: ExportKind): string {
  if (outcome === null) return 'Export cancelled.';
  if (outcome.saved === 'download') return `${kind.toUpperCase()} downloaded.`;
  return `Saved ${outcome.path}`;
}

/**
 * What an empty figure shows: the table's reason (the engine appends it last) up front, then
 * how the table reads once it has rows.
 */
function ChartEmpty({
  title,
  notes,
  action,
}: {
  title: string;
  notes: string[];
  action?: ReactNode;
}) {
  const reason = notes[notes.length - 1];
  const rest = notes.slice(0, -1);
  return (
    <div className="chart-empty">
      <p className="chart-empty-title">{title}</p>
      <p className="chart-empty-reason">
        {reason ? `Why: ${reason}.` : 'The engine has no rows for this table yet.'}
      </p>
      {rest.length > 0 && (
        <ul>
          {rest.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {action}
    </div>
  );
}

/** One figure with its export buttons and notes. */
export function ChartFrame(props: ChartFrameProps) {
  const { table, studyId, label, reference, width, height, filled, simulated, notes } = props;
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState<ExportKind | null>(null);
  useEffect(() => {
    if (!status || status.error) return;
    const timer = setTimeout(() => setStatus(null), 6000);
    return () => clearTimeout(timer);
  }, [status]);

  const run = async (kind: ExportKind) => {
    setBusy(kind);
    setStatus(null);
    try {
      let outcome: SaveOutcome;
      if (kind === 'csv') {
        const address = labStore.getState().address;
        if (!address) throw new Error('The engine is not connected.');
        outcome = await exportTableCsv(labClientFor(address), studyId, table);
      } else {
        const svg = props.svgRef.current;
        if (!svg) throw new Error('The figure is not drawn yet.');
        outcome = await exportFigure(svg, exportBaseName(studyId, table), kind);
      }
      setStatus({ text: describeOutcome(outcome, kind), error: false });
    } catch (error) {
      setStatus({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setBusy(null);
    }
  };

  const exportButton = (kind: ExportKind, disabled: boolean) => (
    <button
      type="button"
      className="chart-export"
      data-testid={`export-${table}-${kind}`}
      disabled={disabled || busy !== null}
      title={
        kind === 'csv'
          ? 'Export the table as CSV (what cuelab report --format csv prints)'
          : `Export the figure as ${kind.toUpperCase()}${kind === 'png' ? ' (2× resolution)' : ''}`
      }
      onClick={() => void run(kind)}
    >
      {kind.toUpperCase()}
    </button>
  );

  return (
    <section
      className="chart-card"
      data-testid={`chart-${table}`}
      data-filled={filled ? 'true' : 'false'}
      data-simulated={simulated ? 'true' : 'false'}
      aria-label={label}
      style={{ width: width + 2 }}
    >
      <header className="chart-card-head">
        <div className="chart-card-name">
          <span className="chart-reference">{reference}</span>
          <h2>{label}</h2>
          {simulated && <span className="badge badge-simulated">simulated</span>}
        </div>
        <div className="chart-card-actions" role="group" aria-label={`Export ${label}`}>
          {exportButton('png', !filled)}
          {exportButton('svg', !filled)}
          {exportButton('csv', false)}
        </div>
      </header>
      <div className="chart-card-controls">
        {props.controls}
        {props.hint && <span className="chart-hint">{props.hint}</span>}
        <span
          className={status?.error ? 'chart-status chart-status-error' : 'chart-status'}
          aria-live="polite"
        >
          {status?.text}
        </span>
      </div>
      <div className="chart-body" style={{ width, height: height + FIGURE_BAND }}>
        {filled ? (
          props.children
        ) : (
          <ChartEmpty
            title={props.emptyTitle ?? 'Nothing to plot yet'}
            notes={notes}
            action={props.emptyAction}
          />
        )}
        <ChartTooltip state={props.tooltip} />
      </div>
      {filled && notes.length > 0 && (
        <details className="chart-notes">
          <summary>How to read this ({notes.length})</summary>
          <ul>
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
