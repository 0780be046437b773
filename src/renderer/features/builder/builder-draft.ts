/**
 * The design being edited, and its two-way mapping to the StudySpec the CLI runs. The draft
 * keeps choices the way the screen shows them (preset checkboxes, levels per axis, mitigation
 * sets); `draftToSpec` is the only way a draft reaches the engine or a file.
 */
import { z } from 'zod';
import {
  isSimulatedProvider,
  judgeProviderKindSchema,
  simulatedProvider,
} from '../../../shared/catalogue/providers';
import {
  cueSpecSchema,
  mitigationSpecSchema,
  type CueAxes,
  type CueSpec,
} from '../../../shared/cue-spec';
import {
  directionPolicySchema,
  itemFilterSchema,
  type StudySpec,
  type StudySpecInput,
} from '../../../shared/study-spec';
import { judgeNameMaxLength } from '../../../shared/judge-names';
import { cueKey, expandCuedConditions, type ArmsInput } from './conditions';
import { cueAxes, presetOptions, type CueAxis } from './cue-catalog';
import {
  judgeOptionsDraftSchema,
  judgeOptionsFromSpec,
  judgeOptionsToSpec,
  safetyDraftSchema,
  safetyFromSpec,
  safetyToSpec,
} from './draft-options';

const judgeDraftSchema = z.object({
  id: z.string(),
  /** True once the person typed an id; until then it follows provider, persona and model. */
  idEdited: z.boolean(),
  provider: judgeProviderKindSchema,
  model: z.string(),
  persona: z.string(),
  baseUrl: z.string(),
  apiKeyEnv: z.string(),
  temperature: z.number().nullable(),
  /** max_tokens, thinking, reasoning effort (App. R). */
  options: judgeOptionsDraftSchema,
  /** Judge fields the builder does not edit (timeoutMs, concurrency), kept as loaded. */
  extra: z.record(z.string(), z.unknown()),
});

/** The draft's shape, also used to revive a draft kept in localStorage. */
export const builderDraftSchema = z.object({
  name: z.string(),
  suiteId: z.string(),
  /** Items picked by hand; the spec lists them as `items.ids`. */
  itemIds: z.array(z.string()),
  /** A loaded spec's item filter that is not a plain id list; wins over `itemIds` while set. */
  itemFilter: itemFilterSchema.nullable(),
  judges: z.array(judgeDraftSchema),
  dimension: z.string(),
  toolBudget: z.union([z.number(), z.literal('unbounded')]).nullable(),
  presets: z.array(z.string()),
  axisLevels: z.record(z.string(), z.array(z.string())),
  /** Cues that are neither presets nor a product of axis levels (custom text, loose cells). */
  otherCues: z.array(cueSpecSchema),
  direction: directionPolicySchema,
  placements: z.array(z.string()),
  mitigationSets: z.array(z.array(mitigationSpecSchema)),
  drop: z.array(z.string()),
  /** Also run an `uncued+MITIGATION` control per mitigation set (§3.4). */
  mitigatedControl: z.boolean().default(false),
  /** Also run the uncued control a second time (`uncued+repeat`), a test-retest noise floor. */
  uncuedRepeat: z.boolean().default(false),
  reps: z.number(),
  seed: z.number(),
  costCapUsd: z.number().nullable(),
  /** Hard stop and max-turn guard (not in the paper, App. R). */
  safety: safetyDraftSchema,
  /** Spec fields the builder does not edit, written back as loaded. */
  preserved: z.record(z.string(), z.unknown()),
});

/** The design being edited. */
export type BuilderDraft = z.infer<typeof builderDraftSchema>;
/** One judge being edited. */
export type JudgeDraft = z.infer<typeof judgeDraftSchema>;

/**
 * A judge's name derived from what the judge is: the persona, or the model id as it is (any
 * model id is a judge name, shared/judge-names.ts).
 */
export function suggestedJudgeId(judge: Pick<JudgeDraft, 'provider' | 'model' | 'persona'>) {
  const base = isSimulatedProvider(judge.provider) ? judge.persona : judge.model;
  return base.trim().slice(0, judgeNameMaxLength) || 'judge';
}

/** A new simulated judge; the builder's first judge needs no key. */
export function newJudge(persona = 'deferential-frontier'): JudgeDraft {
  const judge = {
    provider: simulatedProvider.kind,
    model: simulatedProvider.defaultModel,
    persona,
  };
  return {
    ...judge,
    id: suggestedJudgeId(judge),
    idEdited: false,
    baseUrl: '',
    apiKeyEnv: '',
    temperature: null,
    options: judgeOptionsDraftSchema.parse(undefined),
    extra: {},
  };
}

/** The paper's defaults: the strong cue at the system prompt, 3 reps, seed 17. */
export function defaultDraft(): BuilderDraft {
  return {
    name: '',
    suiteId: '',
    itemIds: [],
    itemFilter: null,
    judges: [newJudge()],
    dimension: 'task_success',
    toolBudget: null,
    presets: ['strong'],
    axisLevels: {},
    otherCues: [],
    direction: 'opposite',
    placements: ['system'],
    mitigationSets: [[]],
    drop: [],
    mitigatedControl: false,
    uncuedRepeat: false,
    reps: 3,
    seed: 17,
    costCapUsd: null,
    safety: safetyDraftSchema.parse(undefined),
    preserved: {},
  };
}

function presetRank(id: string): number {
  const index = presetOptions.findIndex((option) => option.id === id);
  return index === -1 ? presetOptions.length : index;
}

/** The product of the chosen levels; axes with no level chosen stay at their default. */
export function axisProduct(levels: Partial<Record<string, string[]>>): CueSpec[] {
  const chosen = cueAxes.filter(({ axis }) => (levels[axis]?.length ?? 0) > 0);
  if (chosen.length === 0) return [];
  let cells: CueAxes[] = [{}];
  for (const { axis, levels: order } of chosen) {
    const picked = order.filter((level) => levels[axis]?.includes(level));
    cells = cells.flatMap((cell) => picked.map((level) => ({ ...cell, [axis]: level })));
  }
  return cells.map((axes) => ({ kind: 'axes', axes }));
}

/** Every cue of the draft: presets in catalogue order, then the axis product, then the rest. */
export function draftCues(draft: BuilderDraft): CueSpec[] {
  const presets = [...draft.presets]
    .sort((a, b) => presetRank(a) - presetRank(b))
    .map((preset): CueSpec => ({ kind: 'preset', preset }));
  return [...presets, ...axisProduct(draft.axisLevels), ...draft.otherCues];
}

/** The draft's arms as the condition grid reads them. */
export function draftArms(draft: BuilderDraft): ArmsInput {
  return {
    cues: draftCues(draft),
    placements: draft.placements,
    mitigations: draft.mitigationSets,
    drop: draft.drop,
    uncuedRepeat: draft.uncuedRepeat,
  };
}

/** The name written when the person typed none: suite and cues, stable while nothing changes. */
export function fallbackName(draft: BuilderDraft): string {
  const cues = draftCues(draft).map((cue) => cueKey(cue).replace(/^preset:/, ''));
  const shown = cues.length > 3 ? [...cues.slice(0, 3), `+${cues.length - 3}`] : cues;
  return `${draft.suiteId || 'study'}: ${shown.join(', ') || 'uncued only'}`;
}

function judgeToSpec(judge: JudgeDraft): StudySpecInput['judges'][number] {
  const simulated = isSimulatedProvider(judge.provider);
  return {
    ...judge.extra,
    id: judge.id,
    provider: judge.provider,
    model: judge.model,
    ...(simulated ? { persona: judge.persona } : {}),
    ...(!simulated && judge.baseUrl ? { baseUrl: judge.baseUrl } : {}),
    ...(!simulated && judge.apiKeyEnv ? { apiKeyEnv: judge.apiKeyEnv } : {}),
    ...(judge.temperature !== null ? { temperature: judge.temperature } : {}),
    ...judgeOptionsToSpec(judge.provider, judge.options),
  };
}

/** The spec file for a draft: what is estimated, launched, saved and run by `cuelab run`. */
export function draftToSpec(draft: BuilderDraft): StudySpecInput {
  const cells = expandCuedConditions(draftArms(draft));
  const arms = {
    cues: draftCues(draft),
    placements: draft.placements,
    mitigations: draft.mitigationSets,
    // Keys of cells no longer in the grid would only confuse a reader of the file.
    drop: cells.filter((cell) => cell.dropped).map((cell) => cell.key),
    ...(draft.mitigatedControl ? { mitigatedControl: true } : {}),
    ...(draft.uncuedRepeat ? { uncuedRepeat: true } : {}),
  };
  return {
    ...draft.preserved,
    name: draft.name.trim() || fallbackName(draft),
    suite: draft.suiteId,
    items: draft.itemFilter ?? { ids: draft.itemIds },
    judges: draft.judges.map(judgeToSpec),
    dimension: draft.dimension,
    reps: draft.reps,
    seed: draft.seed,
    ...(draft.toolBudget !== null ? { toolBudget: draft.toolBudget } : {}),
    arms,
    direction: draft.direction,
    ...(draft.costCapUsd !== null ? { costCapUsd: draft.costCapUsd } : {}),
    ...safetyToSpec(draft.safety),
  };
}

/** Splits axis cues into levels per axis when they are exactly a product; null otherwise. */
function asAxisLevels(cells: CueAxes[]): Partial<Record<CueAxis, string[]>> | null {
  if (cells.length === 0) return {};
  const levels: Partial<Record<CueAxis, string[]>> = {};
  for (const { axis } of cueAxes) {
    const values = [...new Set(cells.map((cell) => cell[axis]).filter((v) => v !== undefined))];
    if (values.length > 0) levels[axis] = values;
  }
  const product = axisProduct(levels).map(cueKey);
  const given = new Set(cells.map((axes) => cueKey({ kind: 'axes', axes })));
  const exact = product.length === given.size && product.every((key) => given.has(key));
  return exact ? levels : null;
}

/** The draft for a spec (a loaded file, or a study being reopened). */
export function specToDraft(spec: StudySpec): BuilderDraft {
  const { name, suite, items, judges, dimension, reps, seed, toolBudget, arms, direction } = spec;
  // Every other field (gradedFlipThreshold, concurrency, any later one) is written back as is.
  const { costCapUsd, safety: _safety, ...preserved } = omit(spec, drafted);
  const presets: string[] = [];
  const cells: CueAxes[] = [];
  const others: CueSpec[] = [];
  for (const cue of arms.cues) {
    if (cue.kind === 'preset') presets.push(cue.preset);
    else if (cue.kind === 'axes') cells.push(cue.axes);
    else others.push(cue);
  }
  const levels = asAxisLevels(cells);
  const onlyIds = items.ids && Object.keys(items).length === 1;
  return {
    name,
    suiteId: suite,
    itemIds: items.ids ?? [],
    itemFilter: onlyIds ? null : items,
    judges: judges.map((judge) => {
      const { id, provider, model, persona, baseUrl, apiKeyEnv, temperature, ...rest } = judge;
      const { maxTokens: _m, thinking: _t, reasoningEffort: _r, ...extra } = rest;
      return {
        id,
        idEdited: true,
        provider,
        model,
        persona: persona ?? 'deferential-frontier',
        baseUrl: baseUrl ?? '',
        apiKeyEnv: apiKeyEnv ?? '',
        temperature: temperature ?? null,
        options: judgeOptionsFromSpec(judge),
        extra,
      };
    }),
    dimension,
    toolBudget: toolBudget ?? null,
    presets,
    axisLevels: levels ?? {},
    otherCues: levels
      ? others
      : [...cells.map((axes): CueSpec => ({ kind: 'axes', axes })), ...others],
    direction,
    placements: arms.placements,
    mitigationSets: arms.mitigations,
    drop: arms.drop,
    mitigatedControl: arms.mitigatedControl,
    uncuedRepeat: arms.uncuedRepeat,
    reps,
    seed,
    costCapUsd: costCapUsd ?? null,
    safety: safetyFromSpec(spec),
    preserved,
  };
}

/** Spec fields the draft holds itself (everything else is preserved). */
const drafted = [
  'name',
  'suite',
  'items',
  'judges',
  'dimension',
  'reps',
  'seed',
  'toolBudget',
  'arms',
  'direction',
] as const;

function omit<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const out: Partial<T> = { ...value };
  for (const key of keys) delete out[key];
  return out as Omit<T, K>;
}

/** What keeps a draft from being estimated, in words; empty when it can go to the engine. */
export function draftProblems(draft: BuilderDraft): string[] {
  const problems: string[] = [];
  if (!draft.suiteId) problems.push('Pick a suite.');
  else if (!draft.itemFilter && draft.itemIds.length === 0)
    problems.push('Select at least one item.');
  if (draft.judges.length === 0) problems.push('Add a judge.');
  if (draft.placements.length === 0) problems.push('Choose at least one placement.');
  if (draft.mitigationSets.length === 0) problems.push('Keep at least one mitigation set.');
  return problems;
}
