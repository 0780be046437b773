import { NumberField } from '../../components/NumberField';
import { useLab } from '../../store';

/**
 * Safety settings the paper does not have (App. R: the budget never ends a rep): a hard stop
 * after this many tool results (off unless set), the max-turn guard (the engine's default is
 * 200 turns) and the cost cap. A rep they end is stored as `budget_exhausted`.
 */
export function SafetyFields() {
  const safety = useLab((state) => state.draft.safety);
  const costCapUsd = useLab((state) => state.draft.costCapUsd);
  const updateDraft = useLab((state) => state.updateDraft);
  return (
    <fieldset className="safety-fields" aria-label="Safety settings">
      <legend className="field-label">Safety — not in the paper (App. R)</legend>
      <div className="field-row launch-numbers">
        <NumberField
          label="Hard stop"
          optional
          integer
          min={1}
          placeholder="off (results)"
          value={safety.hardStop}
          onChange={(hardStop) =>
            updateDraft((draft) => ({ safety: { ...draft.safety, hardStop } }))
          }
        />
        <NumberField
          label="Max turns"
          optional
          integer
          min={1}
          placeholder="200"
          value={safety.maxTurns}
          onChange={(maxTurns) =>
            updateDraft((draft) => ({ safety: { ...draft.safety, maxTurns } }))
          }
        />
        <NumberField
          label="Cost cap ($)"
          optional
          min={0.01}
          placeholder="none"
          value={costCapUsd}
          onChange={(cap) => updateDraft(() => ({ costCapUsd: cap }))}
        />
      </div>
    </fieldset>
  );
}
