/**
 * From a suite item and a rep condition to what the judge loop runs: the readout, the cue
 * worded for its direction and placed, the mitigations' system text and gate. Shared by
 * `previewPrompt`, `cuelab prompt`, `cuelab judge` and the study runner, so the prompt a
 * researcher previews is the prompt a rep sends.
 */
import type { RepCondition } from '../../../shared/rep-condition';
import type { SuiteItem, SuiteTaxonomy } from '../../../shared/suite-format';
import { EngineError } from '../errors';
import { type PriceTable, costOf, defaultPriceTable } from '../providers';
import { renderCue, type RenderedCue } from './cues/compose';
import type { JudgeEnvironment } from '../contract';
import { resolveMitigations } from './mitigations/builtin';
import { checkCommitment } from './mitigations/commit-first';
import { applyGate, runSufficiencyGate } from './mitigations/gate';
import { parsePlacement } from './placement';
import type { JudgeInput } from './prompt';
import { readoutFor } from './readout-catalog';
import type { VerdictGate } from './run-rep';

/** A prepared rep: loop input, an optional gate, and the condition as recorded. */
export interface PreparedRep {
  input: JudgeInput;
  cue: RenderedCue | null;
  gate: VerdictGate | undefined;
  /** What the rep was, stored with it. */
  record: Record<string, unknown>;
}

/** Gate pricing and decoding settings. */
export interface GateSettings {
  providerKind: string;
  temperature?: number;
  maxTokens?: number;
  priceTable?: PriceTable;
}

/** Builds the judge input for `item` under `condition` in `environment`. */
export function prepareRep(
  item: SuiteItem,
  taxonomies: readonly SuiteTaxonomy[],
  condition: RepCondition,
  environment: JudgeEnvironment,
  gateSettings?: GateSettings,
): PreparedRep {
  if (
    !item.dimensions.includes(condition.dimension) &&
    condition.dimension !== 'error_attribution'
  ) {
    throw new EngineError(
      'bad_request',
      `Item ${item.id} is not judged on "${condition.dimension}"; its dimensions are ${item.dimensions.join(', ')}.`,
    );
  }
  const readout = readoutFor(condition.dimension, item.taxonomy, taxonomies);
  const placement = parsePlacement(condition.placement);
  if (!placement)
    throw new EngineError('bad_request', `Unknown placement "${condition.placement}".`);
  if (placement.kind === 'narration' && condition.cue && condition.cue.kind !== 'family')
    throw new EngineError(
      'bad_request',
      'The "narration" placement is a narration cue family’s transform; this cue is no family.',
    );

  let cue: RenderedCue | null = null;
  if (condition.cue) {
    const direction = condition.direction ?? 'severity';
    try {
      cue = renderCue(condition.cue, direction, {
        readout,
        placement: condition.placement,
        ...(condition.category ? { category: condition.category } : {}),
        ...(condition.cueFamily ? { family: condition.cueFamily } : {}),
      });
    } catch (error) {
      throw new EngineError('bad_request', (error as Error).message);
    }
  }
  let mitigations;
  try {
    mitigations = resolveMitigations(condition.mitigations);
  } catch (error) {
    throw new EngineError('bad_request', (error as Error).message);
  }

  const input: JudgeInput = {
    itemId: item.id,
    task: item.task,
    trajectory: item.trajectory,
    readout,
    environment,
    seed: condition.seed,
    mitigations: mitigations.texts,
    ...(typeof item.render?.toolOutputLimit === 'number'
      ? { toolOutputLimit: item.render.toolOutputLimit }
      : {}),
    ...(cue && condition.direction
      ? {
          cue: {
            text: cue.text,
            ...(cue.texts ? { texts: cue.texts } : {}),
            direction: condition.direction,
            placement,
            label: cue.label,
          },
        }
      : {}),
  };

  const gateSpec = mitigations.gate;
  const auditGate: VerdictGate | undefined = gateSpec
    ? {
        async run(call, transcript, model) {
          const table = gateSettings?.priceTable ?? defaultPriceTable;
          const record = await runSufficiencyGate({
            call,
            model,
            ...(gateSettings?.temperature === undefined
              ? {}
              : { temperature: gateSettings.temperature }),
            ...(gateSettings?.maxTokens === undefined ? {} : { maxTokens: gateSettings.maxTokens }),
            task: item.task,
            transcript,
            gatePrompt: gateSpec.prompt,
            gateId: gateSpec.id,
            costOf: (response) =>
              costOf(response.usage, gateSettings?.providerKind ?? 'unknown', model, table),
          });
          return { finalVerdict: applyGate(transcript, record), record };
        },
      }
    : undefined;
  const gate = mitigations.commitmentCheck ? withCommitmentCheck(auditGate) : auditGate;

  return {
    input,
    cue,
    gate,
    record: {
      dimension: condition.dimension,
      cue: condition.cue ?? null,
      direction: condition.cue ? (condition.direction ?? null) : null,
      placement: condition.cue ? condition.placement : null,
      mitigations: condition.mitigations,
      seed: condition.seed,
      cueText: cue?.text ?? null,
      cueLabel: cue?.label ?? null,
      cueProvenance: cue?.provenance ?? null,
    },
  };
}

/**
 * Commit-first's check (no model call) runs on the judge's verdict first; a gate, when the rep
 * also has one, then audits the verdict that stands. Both records are kept.
 */
function withCommitmentCheck(next: VerdictGate | undefined): VerdictGate {
  return {
    async run(call, transcript, model) {
      const checked = checkCommitment(transcript);
      if (!next) return { finalVerdict: checked.finalVerdict, record: checked.record };
      const audited = await next.run(call, { ...transcript, verdict: checked.finalVerdict }, model);
      return { finalVerdict: audited.finalVerdict, record: [checked.record, audited.record] };
    },
  };
}
