/** Who is labelling: a free-text name, or one of the names used here before. */
import { useState, type FormEvent } from 'react';
import { annotatorPattern, readRecentAnnotators } from './annotators';

/** Props: what choosing a name does. */
export function AnnotatorPicker({ onChoose }: { onChoose: (name: string) => void }) {
  const [recent] = useState(readRecentAnnotators);
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const valid = annotatorPattern.test(trimmed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onChoose(trimmed);
  };
  return (
    <section className="annotator-picker panel" aria-labelledby="annotator-picker-title">
      <h2 id="annotator-picker-title">Who is labelling?</h2>
      <p className="muted">
        Labels are stored under your name. Annotation is blind: no classifier label and no other
        annotator’s label is shown.
      </p>
      <form className="annotator-form" onSubmit={submit}>
        <label className="replay-field">
          <span>Annotator</span>
          <input
            data-testid="annotator-name"
            value={name}
            maxLength={80}
            placeholder="e.g. ann-a"
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={!valid} data-testid="annotator-start">
          Start labelling
        </button>
        {trimmed !== '' && !valid && (
          <span className="muted">Letters, digits, space, “.”, “_” and “-” only.</span>
        )}
      </form>
      {recent.length > 0 && (
        <div className="annotator-recent">
          <span className="muted">Recent:</span>
          {recent.map((entry) => (
            <button key={entry} type="button" className="button" onClick={() => onChoose(entry)}>
              {entry}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
