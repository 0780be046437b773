/** The mechanism choices for the flip on screen, keyboard first: 1/2/3, s, Enter. */
import { useLab } from '../../store';
import { mechanismsFor, overTrustSubModes, type FlipKind } from '../replay/mechanisms';

/** Props: the kind of flip being labelled. */
export function LabelPanel({ kind }: { kind: FlipKind }) {
  const choice = useLab((state) => state.annotateChoice);
  const saving = useLab((state) => state.annotateSaving);
  const pick = useLab((state) => state.pickAnnotateLabel);
  const cycle = useLab((state) => state.cycleAnnotateSubMode);
  const save = useLab((state) => state.saveAnnotateLabel);
  const mechanisms = mechanismsFor(kind);
  const subMode = overTrustSubModes.find((mode) => mode.id === choice.subMode);
  return (
    <section className="label-panel panel" aria-labelledby="label-panel-title">
      <h2 id="label-panel-title">
        Why did the cue flip this judge? <span className="muted">({kind} flip)</span>
      </h2>
      <div className="label-choices" role="radiogroup" aria-label="Mechanism">
        {mechanisms.map((mechanism, index) => (
          <button
            key={mechanism.id}
            type="button"
            role="radio"
            aria-checked={choice.label === mechanism.id}
            className="label-choice"
            data-testid={`label-${mechanism.id}`}
            onClick={() => pick(index)}
          >
            <span className="label-key">
              <kbd>{index + 1}</kbd> {mechanism.name}
              {choice.label === mechanism.id && <span className="label-chosen"> · chosen</span>}
            </span>
            <span className="label-definition">
              {mechanism.definition} <span className="muted">({mechanism.source})</span>
            </span>
          </button>
        ))}
      </div>
      {choice.label === 'over_trust' && (
        <div className="label-submode">
          <button type="button" className="button" data-testid="toggle-submode" onClick={cycle}>
            <kbd>S</kbd> Sub-mode: {subMode ? subMode.name : 'not set'}
          </button>
          <span className="muted">
            {subMode
              ? subMode.definition
              : 'Optional: deference or evidence reweighting (App. A.4).'}
          </span>
        </div>
      )}
      <div className="label-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="save-label"
          disabled={!choice.label || saving.running}
          onClick={() => void save()}
        >
          <kbd>Enter</kbd> {saving.running ? 'Saving…' : 'Save and next'}
        </button>
        {saving.error && (
          <span className="banner banner-error" role="alert">
            {saving.error}
          </span>
        )}
      </div>
    </section>
  );
}
