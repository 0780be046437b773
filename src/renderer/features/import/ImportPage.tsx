import { useId } from 'react';
import type { LabResponse } from '../../../shared/lab-api';
import { importFormats } from '../../../shared/suite-format';
import { CancelFileWork } from '../../components/CancelFileWork';
import { PageHeader } from '../../components/PageHeader';
import { useFileProgress } from '../../lib/file-progress';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import { DropZone } from './DropZone';
import { limitPhrases } from './import-limits';
import './import.css';

const formatLabels: Record<string, string> = {
  auto: 'Detect (auto)',
  'mini-swe-agent': 'mini-swe-agent (*.traj.json)',
  'swe-agent': 'SWE-agent (*.traj)',
  'terminal-bench': 'Terminal-Bench 1 (tb run)',
  harbor: 'Harbor / Terminal-Bench 2',
  mcpmark: 'MCPMark / AJ-Bench',
  inspect: 'Inspect AI log (.eval, .json)',
};

/** The engine's work the page waits on (reading runs; its progress shows on the busy line). */
const importMethods = ['importRuns'] as const;

/**
 * Import other harnesses' runs: point at a folder or file on the engine's machine
 * (or drop one, which is uploaded), preview the items with their gold labels, environments and provenance, see what is skipped
 * and why, then store them as a suite.
 */
export function ImportPage() {
  const draft = useLab((state) => state.importDraft);
  const setDraft = useLab((state) => state.setImportDraft);
  const runImport = useLab((state) => state.runImport);
  const result = useLab((state) => state.importResult);
  const cancelled = useLab((state) => state.importCancelled);
  const connected = useLab((state) => state.status === 'connected');
  const value = loadedValue(result);
  const busy = result.state === 'loading';
  const progress = useFileProgress(importMethods, busy);
  const pathId = useId();

  return (
    <div className="page import-page">
      <PageHeader section="import" />
      <section className="panel" aria-label="What to import">
        <DropZone />
        <form
          className="import-form"
          onSubmit={(event) => {
            event.preventDefault();
            void runImport(false);
          }}
        >
          <label className="field field-grow" htmlFor={pathId}>
            <span className="field-label">Folder or file on the engine’s machine</span>
          </label>
          <div className="field-row">
            <input
              id={pathId}
              className="input"
              data-testid="import-path"
              value={draft.path}
              placeholder="/path/to/run-folder, a *.traj.json, an Inspect .eval …"
              onChange={(event) => setDraft({ path: event.target.value })}
            />
            {window.cuelab && (
              <button type="button" className="button" onClick={() => void chooseFile(setDraft)}>
                Choose a file…
              </button>
            )}
          </div>
          {!window.cuelab && (
            <p className="muted small" data-testid="import-path-roots">
              The lab in a browser reads paths inside the workspace, the example runs CueLab ships
              and the folders added in Settings (Import folders); drop anything else above.
            </p>
          )}
          <div className="field-row">
            <label className="field">
              <span className="field-label">Format</span>
              <select
                className="select"
                value={draft.format}
                onChange={(event) =>
                  setDraft({ format: event.target.value as typeof draft.format })
                }
              >
                {['auto', ...importFormats].map((format) => (
                  <option key={format} value={format}>
                    {formatLabels[format] ?? format}
                  </option>
                ))}
              </select>
            </label>
            <label className="field field-grow">
              <span className="field-label">Suite name (default: the folder’s name)</span>
              <input
                className="input"
                value={draft.name}
                onChange={(event) => setDraft({ name: event.target.value })}
              />
            </label>
            <label className="field field-grow">
              <span className="field-label">
                Task folders (optional: Dockerfiles, instructions)
              </span>
              <input
                className="input"
                value={draft.tasksDir}
                onChange={(event) => setDraft({ tasksDir: event.target.value })}
              />
            </label>
          </div>
          <div className="field-row">
            <label className="field-checkbox">
              <input
                type="checkbox"
                checked={draft.keepFlagged}
                onChange={(event) => setDraft({ keepFlagged: event.target.checked })}
              />{' '}
              Keep runs flagged as broken (e.g. the agent never ran)
            </label>
            <label className="field-checkbox">
              <input
                type="checkbox"
                checked={draft.allowDuplicate}
                onChange={(event) => setDraft({ allowDuplicate: event.target.checked })}
              />{' '}
              Import even if another suite holds these runs
            </label>
            <span className="field-row-spacer" />
            <button
              type="submit"
              className="button"
              disabled={!connected || busy || !draft.path.trim()}
            >
              Preview
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={!connected || busy || !draft.path.trim()}
              onClick={() => void runImport(true)}
            >
              Import as suite
            </button>
          </div>
        </form>
      </section>
      {result.state === 'failed' && (
        <div className="banner banner-error import-error" role="alert">
          {result.error}
        </div>
      )}
      {busy && (
        <div className="import-busy-row">
          <p className="muted" data-testid="import-busy">
            Reading the runs…{progress && ` ${progress.text}`}
          </p>
          <CancelFileWork workId={progress?.workId ?? null} label="Cancel reading the runs" />
        </div>
      )}
      {!busy && cancelled && (
        <p className="muted" role="status" data-testid="import-cancelled">
          Cancelled
        </p>
      )}
      {value && <ImportOutcomeView outcome={value} />}
    </div>
  );
}

function ImportOutcomeView({ outcome }: { outcome: LabResponse<'importRuns'> }) {
  const passing = outcome.imported.filter((run) => run.gold === 'pass').length;
  const failing = outcome.imported.filter((run) => run.gold === 'fail').length;
  const withoutGold = outcome.imported.filter((run) => run.gold === null);
  return (
    <>
      <div
        className={`banner ${outcome.saved ? 'banner-info' : 'banner-warning'}`}
        data-testid="import-summary"
      >
        {outcome.saved ? 'Imported' : 'Preview:'} {outcome.imported.length} item
        {outcome.imported.length === 1 ? '' : 's'} into suite <strong>{outcome.suiteId}</strong> (“
        {outcome.suiteName}”) — gold {passing} pass, {failing} fail,{' '}
        {outcome.imported.length - passing - failing} unlabelled; {outcome.skipped.length} skipped.
        {!outcome.saved && ' Nothing is stored until you import.'}
      </div>
      {withoutGold.length > 0 && (
        // Loud: an item without gold cannot be scored, and a lost report looks the same.
        <div className="banner banner-warning" role="status" data-testid="import-without-gold">
          {withoutGold.length} of {outcome.imported.length} items have no gold label (no report was
          found for them): {withoutGold.map((run) => run.id).join(', ')}
        </div>
      )}
      {outcome.warnings.length > 0 && (
        // Loud: a run that lost steps would be judged as a shorter run than the agent's.
        <div className="banner banner-warning" role="status" data-testid="import-warnings">
          <strong>Check before judging:</strong>
          <ul>
            {outcome.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <section className="panel" aria-label="Items">
        <h2>Items</h2>
        <table className="data-table import-table" data-testid="import-items">
          <thead>
            <tr>
              <th>Item</th>
              <th>Format</th>
              <th>Gold</th>
              <th>Messages</th>
              <th>Environment</th>
              <th>Limits</th>
              <th>Source (sha256)</th>
            </tr>
          </thead>
          <tbody>
            {outcome.imported.map((run) => (
              <tr key={run.id}>
                <th scope="row">
                  {run.id}
                  {run.flags.length > 0 && (
                    <div className="import-flag">{run.flags.join('; ')}</div>
                  )}
                </th>
                <td>{run.format}</td>
                <td>
                  <span
                    className={`status-pill ${run.gold === 'pass' ? 'status-completed' : run.gold === 'fail' ? 'status-failed' : 'status-draft'}`}
                  >
                    {run.gold ?? 'none'}
                  </span>
                </td>
                <td className="numeric">{run.messages}</td>
                <td>{run.environment}</td>
                <td className="import-limits" data-testid="import-limits">
                  {limitPhrases(run.limits).map((phrase) => (
                    <div key={phrase}>{phrase}</div>
                  ))}
                </td>
                <td className="import-source">
                  {run.source}
                  <div className="muted">{run.sha256.slice(0, 16)}…</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {outcome.skipped.length > 0 && (
        <section className="panel" aria-label="Skipped">
          <h2>Skipped, and why</h2>
          <ul className="import-skipped" data-testid="import-skipped">
            {outcome.skipped.map((entry) => (
              <li key={`${entry.path}:${entry.reason}`}>
                <code>{entry.path}</code>: {entry.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** The desktop app's file dialog; a folder is typed (the dialog opens files, not folders). */
async function chooseFile(setDraft: (change: { path: string }) => void): Promise<void> {
  const chosen = await window.cuelab?.openFile({
    title: 'Import runs',
    filters: [{ name: 'Runs', extensions: ['json', 'traj', 'eval', 'jsonl'] }],
  });
  if (chosen) setDraft({ path: chosen.path });
}
