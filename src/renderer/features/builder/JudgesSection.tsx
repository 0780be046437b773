import { useId } from 'react';
import {
  isSimulatedProvider,
  providerCatalogue,
  providerEntry,
} from '../../../shared/catalogue/providers';
import { NumberField } from '../../components/NumberField';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import { judgeNameProblem } from '../../../shared/judge-names';
import { newJudge, suggestedJudgeId, type JudgeDraft } from './builder-draft';
import { BuilderSection } from './BuilderSection';
import { personaOptions } from './cue-catalog';
import { JudgeOptionsFields } from './JudgeOptionsFields';

const errorAttribution = 'error_attribution';

/** The simulation first: a new judge starts there, needing no key. */
const providerChoices = [
  ...providerCatalogue.filter((entry) => entry.simulated),
  ...providerCatalogue.filter((entry) => !entry.simulated),
];

/** Dimensions every chosen item is judged on, plus error attribution when all have a taxonomy. */
function useDimensionOptions(): string[] {
  const suiteItems = useLab((state) => state.suiteItems);
  const itemIds = useLab((state) => state.draft.itemIds);
  const items = loadedValue(suiteItems) ?? [];
  const chosen = itemIds.length ? items.filter((item) => itemIds.includes(item.id)) : items;
  if (chosen.length === 0) return ['task_success'];
  const [first, ...rest] = chosen;
  const shared = (first?.dimensions ?? []).filter((dimension) =>
    rest.every((item) => item.dimensions.includes(dimension)),
  );
  return chosen.every((item) => item.taxonomy) ? [...shared, errorAttribution] : shared;
}

function JudgeRow({ judge, index }: { judge: JudgeDraft; index: number }) {
  const listId = useId();
  const judges = useLab((state) => state.draft.judges);
  const updateDraft = useLab((state) => state.updateDraft);
  const change = (patch: Partial<JudgeDraft>) =>
    updateDraft((draft) => ({
      judges: draft.judges.map((other, at) => {
        if (at !== index) return other;
        const next = { ...other, ...patch };
        return next.idEdited ? next : { ...next, id: suggestedJudgeId(next) };
      }),
    }));
  const provider = providerEntry(judge.provider);
  const synthetic = provider.simulated;
  const duplicateId = judges.some((other, at) => at !== index && other.id === judge.id);
  // The spec validator's own rule, so the row says what the estimate would refuse.
  const nameProblem =
    judgeNameProblem(judge.id) ??
    (duplicateId ? `another judge is already named "${judge.id}"` : null);
  const problemId = useId();
  return (
    <div className="judge-row" role="group" aria-label={`Judge ${index + 1}`}>
      <label className="field">
        <span className="field-label">Provider</span>
        <select
          className="select"
          value={judge.provider}
          onChange={(event) => {
            const chosen = providerChoices.find((option) => option.kind === event.target.value);
            if (chosen) change({ provider: chosen.kind, model: chosen.defaultModel });
          }}
        >
          {providerChoices.map((option) => (
            <option key={option.kind} value={option.kind}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {synthetic ? (
        <label className="field">
          <span className="field-label">Persona</span>
          <select
            className="select"
            value={judge.persona}
            onChange={(event) => change({ persona: event.target.value })}
          >
            {personaOptions.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label className="field">
          <span className="field-label">Model</span>
          <input
            className="input mono"
            value={judge.model}
            list={listId}
            onChange={(event) => change({ model: event.target.value })}
          />
          <datalist id={listId}>
            {provider.suggestedModels.map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
        </label>
      )}
      <NumberField
        label="Temperature"
        optional
        min={0}
        max={2}
        step={0.1}
        placeholder="default"
        value={judge.temperature}
        onChange={(temperature) => change({ temperature })}
      />
      <label className="field">
        <span className="field-label">Name in tables</span>
        <input
          className="input mono"
          value={judge.id}
          aria-invalid={nameProblem !== null}
          aria-describedby={nameProblem ? problemId : undefined}
          data-testid={`judge-name-${index}`}
          onChange={(event) => change({ id: event.target.value, idEdited: true })}
        />
      </label>
      <button
        type="button"
        className="icon-button judge-remove"
        aria-label={`Remove judge ${judge.id}`}
        title="Remove this judge"
        disabled={judges.length === 1}
        onClick={() =>
          updateDraft((draft) => ({ judges: draft.judges.filter((_, at) => at !== index) }))
        }
      >
        ×
      </button>
      {nameProblem && (
        <p
          className="judge-problem"
          id={problemId}
          role="alert"
          data-testid={`judge-problem-${index}`}
        >
          Judge name: {nameProblem}.
        </p>
      )}
      {synthetic && (
        <p className="judge-about muted small">
          {personaOptions.find((option) => option.id === judge.persona)?.about ??
            'A persona this build of the builder does not know; the engine checks it.'}
        </p>
      )}
      {!synthetic && (
        <div className="judge-extra">
          {provider.baseUrlRequired && (
            <label className="field">
              <span className="field-label">Base URL</span>
              <input
                className="input mono"
                placeholder={provider.baseUrlExample ?? ''}
                value={judge.baseUrl}
                onChange={(event) => change({ baseUrl: event.target.value })}
              />
            </label>
          )}
          <label className="field">
            <span className="field-label">API key variable</span>
            <input
              className="input mono"
              placeholder={provider.keyPlaceholder}
              value={judge.apiKeyEnv}
              onChange={(event) => change({ apiKeyEnv: event.target.value })}
            />
          </label>
          <JudgeOptionsFields judge={judge} onChange={(options) => change({ options })} />
        </div>
      )}
    </div>
  );
}

/** Judges, the dimension they rate, and the tool budget. */
export function JudgesSection() {
  const judges = useLab((state) => state.draft.judges);
  const dimension = useLab((state) => state.draft.dimension);
  const toolBudget = useLab((state) => state.draft.toolBudget);
  const updateDraft = useLab((state) => state.updateDraft);
  const dimensions = useDimensionOptions();
  const simulated = judges.some((judge) => isSimulatedProvider(judge.provider));
  const options = dimensions.includes(dimension) ? dimensions : [dimension, ...dimensions];
  return (
    <BuilderSection
      step={2}
      title="Judges"
      summary={
        <>
          {judges.length} judge{judges.length === 1 ? '' : 's'}
          {simulated && <span className="badge badge-simulated">simulated</span>}
        </>
      }
    >
      <div className="judge-list">
        {judges.map((judge, index) => (
          <JudgeRow key={index} judge={judge} index={index} />
        ))}
      </div>
      <div className="field-row">
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            updateDraft((draft) => ({ judges: [...draft.judges, newJudge('robust-frontier')] }))
          }
        >
          Add judge
        </button>
        <span className="field-row-spacer" />
        <label className="field">
          <span className="field-label">Dimension</span>
          <select
            className="select"
            value={dimension}
            onChange={(event) => updateDraft(() => ({ dimension: event.target.value }))}
          >
            {options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <NumberField
          className="field-narrow"
          label="Tool budget"
          optional
          integer
          min={1}
          placeholder={toolBudget === 'unbounded' ? 'unbounded' : 'suite default'}
          disabled={toolBudget === 'unbounded'}
          value={typeof toolBudget === 'number' ? toolBudget : null}
          onChange={(budget) => updateDraft(() => ({ toolBudget: budget }))}
        />
        <label className="choice field-checkbox">
          <input
            type="checkbox"
            checked={toolBudget === 'unbounded'}
            onChange={(event) =>
              updateDraft(() => ({ toolBudget: event.target.checked ? 'unbounded' : null }))
            }
          />
          Unbounded
        </label>
      </div>
      {simulated && (
        <p className="muted small judge-note">
          The synthetic judge is an offline simulation calibrated on the paper; its results are
          marked simulated everywhere.
        </p>
      )}
    </BuilderSection>
  );
}
