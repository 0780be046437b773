/**
 * The builder's provider options per judge (App. R: Anthropic extended / adaptive thinking, as
 * the paper's Opus voter runs; OpenAI reasoning effort; max_tokens) and the study's safety
 * settings (the hard stop and max-turn guard the paper does not have, and the cost cap), with
 * their mapping to and from the spec. A setting the judge's provider does not take is kept in
 * the draft but not written, so switching provider back and forth loses nothing.
 */
import { z } from 'zod';
import { takesOption, type ProviderOption } from '../../../shared/catalogue/providers';
import type { StudyJudge, StudySpec, StudySpecInput } from '../../../shared/study-spec';

/** Reasoning-effort choices; `default` writes nothing (the provider's own default). */
export const reasoningEffortChoices = ['default', 'minimal', 'low', 'medium', 'high'] as const;

/** Thinking choices; `off` writes nothing. */
export const thinkingChoices = ['off', 'adaptive', 'enabled'] as const;

/** The smallest extended-thinking budget Anthropic accepts (and the spec checks). */
export const MIN_THINKING_BUDGET = 1024;

/** One judge's provider options as the builder edits them. */
export const judgeOptionsDraftSchema = z
  .object({
    maxTokens: z.number().nullable().default(null),
    thinking: z.enum(thinkingChoices).default('off'),
    thinkingBudget: z.number().default(8192),
    reasoningEffort: z.enum(reasoningEffortChoices).default('default'),
  })
  .default({ maxTokens: null, thinking: 'off', thinkingBudget: 8192, reasoningEffort: 'default' });

/** One judge's provider options being edited. */
export type JudgeOptionsDraft = z.infer<typeof judgeOptionsDraftSchema>;

/** The study's safety settings as the builder edits them (null: off / the engine's default). */
export const safetyDraftSchema = z
  .object({
    hardStop: z.number().nullable().default(null),
    maxTurns: z.number().nullable().default(null),
  })
  .default({ hardStop: null, maxTurns: null });

/** The study's safety settings being edited. */
export type SafetyDraft = z.infer<typeof safetyDraftSchema>;

/** Options of a judge read from a spec. */
export function judgeOptionsFromSpec(judge: StudyJudge): JudgeOptionsDraft {
  return {
    maxTokens: judge.maxTokens ?? null,
    thinking: judge.thinking?.type ?? 'off',
    thinkingBudget: judge.thinking?.type === 'enabled' ? judge.thinking.budgetTokens : 8192,
    reasoningEffort: judge.reasoningEffort ?? 'default',
  };
}

type JudgeInput = StudySpecInput['judges'][number];

/** The spec fields of a judge's options, only those its provider takes. */
export function judgeOptionsToSpec(
  provider: JudgeInput['provider'],
  options: JudgeOptionsDraft,
): Pick<JudgeInput, 'maxTokens' | 'thinking' | 'reasoningEffort'> {
  const takes = (option: ProviderOption) => takesOption(provider, option);
  const out: Pick<JudgeInput, 'maxTokens' | 'thinking' | 'reasoningEffort'> = {};
  if (takes('maxTokens') && options.maxTokens !== null) out.maxTokens = options.maxTokens;
  if (takes('thinking') && options.thinking === 'adaptive') out.thinking = { type: 'adaptive' };
  if (takes('thinking') && options.thinking === 'enabled')
    out.thinking = { type: 'enabled', budgetTokens: options.thinkingBudget };
  if (takes('reasoningEffort') && options.reasoningEffort !== 'default')
    out.reasoningEffort = options.reasoningEffort;
  return out;
}

/** Safety settings read from a spec. */
export function safetyFromSpec(spec: StudySpec): SafetyDraft {
  return { hardStop: spec.safety?.hardStop ?? null, maxTurns: spec.safety?.maxTurns ?? null };
}

/** The spec's `safety` field, absent when nothing is set. */
export function safetyToSpec(safety: SafetyDraft): Pick<StudySpecInput, 'safety'> {
  const set = {
    ...(safety.hardStop !== null ? { hardStop: safety.hardStop } : {}),
    ...(safety.maxTurns !== null ? { maxTurns: safety.maxTurns } : {}),
  };
  return Object.keys(set).length ? { safety: set } : {};
}
