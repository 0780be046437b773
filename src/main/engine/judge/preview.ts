/**
 * `previewPrompt`: the exact system prompt, messages and tools one rep would send, with the
 * cue's spans, built by the same code path a rep runs (prepare → buildJudgePrompt).
 */
import type { PromptPreview } from '../../../shared/lab-api';
import type { RepCondition } from '../../../shared/rep-condition';
import type { SuiteItem, SuiteTaxonomy } from '../../../shared/suite-format';
import { describeEnvironment } from '../environments';
import { prepareRep } from './prepare';
import { buildJudgePrompt } from './prompt';

/** Builds the preview of `item` under `condition`, without running anything. */
export function previewPrompt(
  item: SuiteItem,
  taxonomies: readonly SuiteTaxonomy[],
  condition: RepCondition,
): PromptPreview {
  const { environment, backend } = describeEnvironment(item.environment, item.trajectory);
  const prepared = prepareRep(item, taxonomies, condition, environment);
  const prompt = buildJudgePrompt(prepared.input);
  return {
    system: prompt.system,
    messages: prompt.messages,
    tools: prompt.tools,
    cueSpans: prompt.cueSpans,
    cue: prepared.cue
      ? {
          text: prepared.cue.text,
          label: prepared.cue.label,
          provenance: prepared.cue.provenance,
          ...(prepared.cue.citation ? { citation: prepared.cue.citation } : {}),
        }
      : null,
    backend,
  };
}
