/**
 * The card around one figure: its name and paper reference, its controls, PNG / SVG / PDF /
 * CSV export at a journal's size, the figure fitted to the card's grid cell, the table's notes,
 * and the notes in place of the figure when the table is empty. Exports draw the figure again
 * off screen, in the light theme at the chosen width, so a file never depends on the window.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { labClientFor } from '../lib/engine-client';
import {
  exportBaseName,
  exportFigure,
  exportTableCsv,
  type FigureFormat,
} from '../lib/export/export-figure';
import { exportWidth, sizeTag, type FigureDpi, type FigureSize } from '../lib/export/figure-sizes';
import type { SaveOutcome } from '../lib/export/save-file';
import { labStore, useLab } from '../store';
import type { ResultTableName } from './table-values';
import { ExportOptions } from './ExportOptions';
import { FIGURE_BAND } from './Figure';
import type { DrawFigure, FigureFrame } from './figure-frame';
import { chartFont, chartPalette, useChartPalette } from './palette';
import { ChartTooltip, type TooltipState } from './Tooltip';
import { useFigureWidth } from './use-figure-width';
import './charts.css';

/** What a chart card needs. */
export interface ChartFrameProps {
  table: ResultTableName;
  /** Names the figure in test ids and export files when two figures read one table. */
  figureId?: string;
  studyId: string;
  /** The figure's name in the window, e.g. "Harmful flips by judge × dataset". */
  label: string;
  /** Where it is in the paper, e.g. "Fig. 2". */
  reference: string;
  /** The width the figure is drawn at when its cell has room. */
  width: number;
  /** The empty card's body height (a drawn figure takes the height it needs). */
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
  /** The report card's tolerance, sent with the CSV export so the file flags what the figure flags. */
  tolerancePp?: number;
  /** How to use the figure, shown where pickers would be when it has none. */
  hint?: string;
  tooltip: TooltipState | null;
  /** Draws the figure at a width and palette: for the window and for each export. */
  figure: DrawFigure;
}

type ExportKind = FigureFormat | 'csv';

function describeOutcome(outcome: SaveOutcome, kind: ExportKind): string {
  if (outcome === null) return 'Export cancelled.';
  if (outcome.saved === 'download') return `${kind.toUpperCase()} downloaded.`;
  if (outcome.saved === 'print') return 'Print dialog opened: choose “Save as PDF”.';
  return `Saved ${outcome.path}`;
}

/** What an export draws off screen: the figure at a width, in the light theme. */
interface ExportStage {
  width: number;
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
        {/* An empty table always carries its reason: no notes means it has not arrived yet. */}
        {reason ? `Why: ${reason}.` : 'Waiting for the engine to draw this table.'}
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

/** A figure drawn for one frame, as its own element so the frame's SVG handle is a prop. */
function FigureSlot({ draw, frame }: { draw: DrawFigure; frame: FigureFrame }) {
  return <>{draw(frame)}</>;
}

/** One figure with its export buttons and notes. */
export function ChartFrame(props: ChartFrameProps) {
  const { table, studyId, label, reference, height, filled, simulated, notes } = props;
  const figureId = props.figureId ?? table;
  const palette = useChartPalette();
  const cardRef = useRef<HTMLElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const stageRef = useRef<SVGSVGElement>(null);
  const width = useFigureWidth(cardRef, props.width);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [size, setSize] = useState<FigureSize>('double');
  const [dpi, setDpi] = useState<FigureDpi>(300);
  const [stage, setStage] = useState<ExportStage | null>(null);
  // A figure drawn from an out-of-date table (the study opened before its current tables were
  // drawn) is shown, labelled, but never exported: exports wait for the current table. The
  // CSV comes from the engine, which answers only the current table.
  const outdated = useLab((state) => state.resultTables[table]?.outdated !== undefined);
  const staged = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!status || status.error) return;
    const timer = setTimeout(() => setStatus(null), 6000);
    return () => clearTimeout(timer);
  }, [status]);
  // Children's layout effects (d3 axes) have run by now, so the staged SVG is complete.
  useLayoutEffect(() => {
    if (stage && staged.current) staged.current();
  }, [stage]);

  const drawForExport = (exportSize: FigureSize) =>
    new Promise<SVGSVGElement>((resolve, reject) => {
      staged.current = () => {
        staged.current = null;
        if (stageRef.current) resolve(stageRef.current);
        else reject(new Error('The figure is not drawn yet.'));
      };
      setStage({ width: exportWidth(exportSize, width) });
    });

  const run = async (kind: ExportKind) => {
    setBusy(kind);
    setStatus(null);
    try {
      let outcome: SaveOutcome;
      if (kind === 'csv') {
        const address = labStore.getState().address;
        if (!address) throw new Error('The engine is not connected.');
        outcome = await exportTableCsv(
          labClientFor(address),
          studyId,
          table,
          props.tolerancePp === undefined ? {} : { tolerancePp: props.tolerancePp },
        );
      } else {
        const svg = await drawForExport(size);
        const baseName = `${exportBaseName(studyId, figureId)}-${sizeTag(size, width)}`;
        outcome = await exportFigure(svg, baseName, {
          format: kind,
          dpi,
          fontFamily: chartFont,
          title: label,
        });
      }
      setStatus({ text: describeOutcome(outcome, kind), error: false });
    } catch (error) {
      setStatus({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setStage(null);
      setBusy(null);
    }
  };

  const exportButton = (kind: ExportKind, disabled: boolean) => (
    <button
      type="button"
      className="chart-export"
      data-testid={`export-${figureId}-${kind}`}
      disabled={disabled || busy !== null}
      title={
        kind === 'csv'
          ? 'Export the table as CSV (what cuelab report --format csv prints)'
          : outdated
            ? 'Figure exports wait for the current table (this one is out of date)'
            : kind === 'pdf'
              ? 'Print the figure alone as a vector PDF (choose “Save as PDF”)'
              : `Export the figure as ${kind.toUpperCase()}, light theme, at the chosen size`
      }
      onClick={() => void run(kind)}
    >
      {kind.toUpperCase()}
    </button>
  );

  return (
    <section
      ref={cardRef}
      className="chart-card"
      data-testid={`chart-${figureId}`}
      data-filled={filled ? 'true' : 'false'}
      data-simulated={simulated ? 'true' : 'false'}
      data-figure-width={width}
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
          <ExportOptions
            testIdPrefix={`export-${figureId}`}
            size={size}
            dpi={dpi}
            onSize={setSize}
            onDpi={setDpi}
          />
          {exportButton('png', !filled || outdated)}
          {exportButton('svg', !filled || outdated)}
          {exportButton('pdf', !filled || outdated)}
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
      <div
        className="chart-body"
        style={{ width, minHeight: filled ? undefined : height + FIGURE_BAND }}
      >
        {filled ? (
          <FigureSlot draw={props.figure} frame={{ width, palette, svgRef, exporting: false }} />
        ) : (
          <ChartEmpty
            title={props.emptyTitle ?? 'Nothing to plot yet'}
            notes={notes}
            action={props.emptyAction}
          />
        )}
        <ChartTooltip state={props.tooltip} />
      </div>
      {stage && filled && (
        <div className="chart-export-stage" aria-hidden="true" data-export-stage="">
          <FigureSlot
            draw={props.figure}
            frame={{
              width: stage.width,
              palette: chartPalette('light'),
              svgRef: stageRef,
              exporting: true,
            }}
          />
        </div>
      )}
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
