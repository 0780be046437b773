/**
 * The builder never drops what a loaded spec says: load a spec file → draft → save gives the same
 * spec, provider options per judge (App. R: thinking, reasoning effort, max_tokens) and safety
 * settings (hard stop, max turns, cost cap) included, and those are editable in the draft.
 */
import { describe, expect, it } from 'vitest';
import {
  builderDraftSchema,
  defaultDraft,
  draftToSpec,
  specToDraft,
} from '../../src/renderer/features/builder/builder-draft';
import { parseSpecText } from '../../src/renderer/features/builder/spec-files';
import { studySpecSchema } from '../../src/shared/study-spec';

const SPEC = `
name: Options round trip
suite: cuelab-mini
items: { datasets: [mini-filesystem], limit: 4 }
judges:
  - { id: opus, provider: anthropic, model: claude-opus-4-7, thinking: { type: adaptive }, maxTokens: 16000, timeoutMs: 90000 }
  - { id: sonnet, provider: anthropic, model: claude-sonnet-4-6, thinking: { type: enabled, budgetTokens: 4096 } }
  - { id: gpt, provider: openai, model: gpt-5, reasoningEffort: high, maxTokens: 4000, concurrency: 2 }
  - { id: sim, provider: synthetic, model: sim, persona: robust-frontier }
dimension: task_success
reps: 3
seed: 17
safety: { hardStop: 120, maxTurns: 60 }
costCapUsd: 12.5
gradedFlipThreshold: 15
concurrency: { total: 2, containers: 2 }
arms:
  cues: [{ kind: preset, preset: strong }]
  placements: [system]
  mitigations: [[], [{ kind: builtin, id: guard }]]
  mitigatedControl: true
  uncuedRepeat: true
direction: opposite
`;

async function loaded() {
  const result = await parseSpecText(SPEC, 'options.cuelab.yaml');
  if (!result.ok) throw new Error(result.message);
  return result.spec;
}

describe('the builder draft round trip', () => {
  it('saves a loaded spec with every provider option and safety setting unchanged', async () => {
    const spec = await loaded();
    const draft = specToDraft(spec);
    // Kept across a reload of the window: the draft goes through localStorage as JSON.
    const revived = builderDraftSchema.parse(JSON.parse(JSON.stringify(draft)));
    expect(studySpecSchema.parse(draftToSpec(revived))).toEqual(spec);
  });

  it('holds the options as editable fields, not as opaque leftovers', async () => {
    const draft = specToDraft(await loaded());
    const [opus, sonnet, gpt] = draft.judges;
    expect(opus?.options).toEqual({
      maxTokens: 16000,
      thinking: 'adaptive',
      thinkingBudget: 8192,
      reasoningEffort: 'default',
    });
    expect(opus?.extra).toEqual({ timeoutMs: 90000 });
    expect(sonnet?.options).toMatchObject({ thinking: 'enabled', thinkingBudget: 4096 });
    expect(gpt?.options).toMatchObject({ reasoningEffort: 'high', maxTokens: 4000 });
    expect(draft.safety).toEqual({ hardStop: 120, maxTurns: 60 });
    expect(draft.costCapUsd).toBe(12.5);
    expect(draft.mitigatedControl).toBe(true);
    expect(draft.uncuedRepeat).toBe(true);
    expect(draftToSpec(draft).arms).toMatchObject({ mitigatedControl: true, uncuedRepeat: true });
    // Off, the field is left out of the file, as an older spec never had it.
    expect(draftToSpec({ ...draft, uncuedRepeat: false }).arms).not.toHaveProperty('uncuedRepeat');
  });

  it('writes edited options, and only those the provider takes', async () => {
    const draft = specToDraft(await loaded());
    const edited = {
      ...draft,
      safety: { hardStop: null, maxTurns: 200 },
      judges: draft.judges.map((judge) =>
        judge.id === 'opus'
          ? {
              ...judge,
              provider: 'openai' as const,
              options: { ...judge.options, maxTokens: null },
            }
          : judge.id === 'gpt'
            ? { ...judge, options: { ...judge.options, reasoningEffort: 'low' as const } }
            : judge,
      ),
    };
    const spec = studySpecSchema.parse(draftToSpec(edited));
    expect(spec.safety).toEqual({ maxTurns: 200 });
    const opus = spec.judges.find((judge) => judge.id === 'opus');
    // Thinking is an Anthropic setting: not written for an OpenAI judge (the spec would refuse it).
    expect(opus).not.toHaveProperty('thinking');
    expect(opus).not.toHaveProperty('maxTokens');
    expect(spec.judges.find((judge) => judge.id === 'gpt')?.reasoningEffort).toBe('low');
    // Switching back to Anthropic restores the thinking the draft kept.
    const back = studySpecSchema.parse(
      draftToSpec({
        ...edited,
        judges: edited.judges.map((judge) =>
          judge.id === 'opus' ? { ...judge, provider: 'anthropic' as const } : judge,
        ),
      }),
    );
    expect(back.judges.find((judge) => judge.id === 'opus')?.thinking).toEqual({
      type: 'adaptive',
    });
  });

  it('revives a draft kept before these fields existed', () => {
    const old = JSON.parse(JSON.stringify(defaultDraft())) as Record<string, unknown>;
    delete old.safety;
    delete old.mitigatedControl;
    delete old.uncuedRepeat;
    for (const judge of old.judges as Record<string, unknown>[]) delete judge.options;
    const revived = builderDraftSchema.safeParse(old);
    expect(revived.success).toBe(true);
    expect(revived.data?.safety).toEqual({ hardStop: null, maxTurns: null });
    expect(revived.data?.judges[0]?.options.thinking).toBe('off');
    expect(revived.data?.uncuedRepeat).toBe(false);
  });
});
