import {
  providerEntry,
  takesOption,
  type ProviderOption,
} from '../../../shared/catalogue/providers';
import { NumberField } from '../../components/NumberField';
import type { JudgeDraft } from './builder-draft';
import {
  MIN_THINKING_BUDGET,
  reasoningEffortChoices,
  thinkingChoices,
  type JudgeOptionsDraft,
} from './draft-options';

const thinkingLabels: Record<JudgeOptionsDraft['thinking'], string> = {
  off: 'off',
  adaptive: 'adaptive (App. R, Opus)',
  enabled: 'extended, with a budget',
};

/**
 * A real judge's provider options (App. R: max_tokens, Anthropic thinking, OpenAI reasoning
 * effort), each shown when the catalogue says the provider takes it. Sent on every call and
 * stored with each rep.
 */
export function JudgeOptionsFields({
  judge,
  onChange,
}: {
  judge: JudgeDraft;
  onChange: (options: JudgeOptionsDraft) => void;
}) {
  const { options } = judge;
  const provider = providerEntry(judge.provider);
  const takes = (option: ProviderOption) => takesOption(judge.provider, option);
  const set = (patch: Partial<JudgeOptionsDraft>) => onChange({ ...options, ...patch });
  return (
    <>
      {takes('maxTokens') && (
        <NumberField
          className="field-narrow"
          label="Max tokens"
          optional
          integer
          min={1}
          placeholder={
            provider.defaultMaxTokens === null ? 'default' : String(provider.defaultMaxTokens)
          }
          value={options.maxTokens}
          onChange={(maxTokens) => set({ maxTokens })}
        />
      )}
      {takes('thinking') && (
        <>
          <label className="field">
            <span className="field-label">Thinking</span>
            <select
              className="select"
              value={options.thinking}
              onChange={(event) =>
                set({ thinking: event.target.value as JudgeOptionsDraft['thinking'] })
              }
            >
              {thinkingChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {thinkingLabels[choice]}
                </option>
              ))}
            </select>
          </label>
          {options.thinking === 'enabled' && (
            <NumberField
              className="field-narrow"
              label="Thinking budget"
              integer
              min={MIN_THINKING_BUDGET}
              value={options.thinkingBudget}
              onChange={(budget) => set({ thinkingBudget: budget ?? options.thinkingBudget })}
            />
          )}
        </>
      )}
      {takes('reasoningEffort') && (
        <label className="field">
          <span className="field-label">Reasoning effort</span>
          <select
            className="select"
            value={options.reasoningEffort}
            onChange={(event) =>
              set({
                reasoningEffort: event.target.value as JudgeOptionsDraft['reasoningEffort'],
              })
            }
          >
            {reasoningEffortChoices.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}
