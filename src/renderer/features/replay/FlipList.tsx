/** The flipped reps of a study: one dense row each, the open one highlighted. */
import type { ReactNode } from 'react';
import type { StudySummary } from '../../../shared/lab-api';
import { formatDateTime } from '../../lib/format';
import { mechanismName } from './mechanisms';
import type { FlipSummary } from './replay-slice';

function namesSeen(studies: readonly StudySummary[], name: string): number {
  return studies.filter((study) => study.name === name).length;
}

/** A study selector shared by Replay and Annotate. */
export function StudySelect({
  studies,
  value,
  onChange,
  testId,
}: {
  studies: StudySummary[];
  value: string;
  onChange: (studyId: string) => void;
  testId: string;
}) {
  // The picker shows the name alone (the date only where two studies share a name), and the
  // chosen study's date beside it, so a long name has the whole row.
  const chosen = studies.find((study) => study.id === value);
  return (
    <label className="replay-field study-picker">
      <span>Study</span>
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)}>
        {!studies.some((study) => study.id === value) && <option value={value}>{value}</option>}
        {studies.map((study) => (
          <option key={study.id} value={study.id}>
            {study.name}
            {namesSeen(studies, study.name) > 1 ? ` · ${formatDateTime(study.createdAt)}` : ''}
          </option>
        ))}
      </select>
      {chosen && (
        <span className="muted small study-picker-facts">
          {formatDateTime(chosen.createdAt)}
          {chosen.simulated ? ' · simulated' : ''}
        </span>
      )}
    </label>
  );
}

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return 'not classified';
  return entries.map(([source, label]) => `${source}: ${mechanismName(label)}`).join(' · ');
}

/** A condition key that may wrap before its `@placement` rather than mid-word at 1024. */
function breakableCondition(conditionKey: string): ReactNode {
  const [first, ...rest] = conditionKey.split('@');
  return [first, ...rest.flatMap((part, index) => [<wbr key={index} />, `@${part}`])];
}

/** Props: the flips, the open rep, and what opening one does. */
export function FlipList({
  flips,
  openRepId,
  onOpen,
}: {
  flips: FlipSummary[];
  openRepId: string | null;
  onOpen: (repId: string) => void;
}) {
  return (
    <table className="data-table flip-table">
      <thead>
        <tr>
          <th>Item</th>
          <th>Judge · dataset</th>
          <th>Condition · direction</th>
          <th>Kind</th>
          <th>Uncued → cued</th>
          <th>Gold</th>
          <th>Classifier labels</th>
        </tr>
      </thead>
      <tbody>
        {flips.map((flip) => (
          <tr
            key={flip.repId}
            data-testid="flip-row"
            data-rep-id={flip.repId}
            aria-selected={flip.repId === openRepId}
            className="flip-row"
            onClick={() => onOpen(flip.repId)}
          >
            <th scope="row">
              <button type="button" className="link-button mono" onClick={() => onOpen(flip.repId)}>
                {flip.itemId}
              </button>
              <span className="flip-sub">rep {flip.rep}</span>
            </th>
            <td>
              {flip.judgeId}
              <span className="flip-sub">{flip.dataset}</span>
            </td>
            <td className="flip-condition">
              {breakableCondition(flip.conditionKey)}
              <span className="flip-sub">{flip.direction}</span>
            </td>
            <td className="flip-kind">
              <span className={`badge badge-${flip.kind}`}>{flip.kind}</span>
              {flip.simulated && <span className="badge badge-simulated">simulated</span>}
            </td>
            <td>
              {flip.uncuedMajority} → <strong>{flip.cuedVerdict}</strong>
            </td>
            <td>{flip.gold}</td>
            <td className="flip-labels">{labelText(flip.classifierLabels)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
