/**
 * One judge rep outside any study (`cuelab judge`): the item's environment provisioned on this
 * machine, the rep prepared with its cue and placement, run against a real provider or the
 * synthetic judge, stored in the workspace, and the environment disposed on every path.
 */
import type { RepCondition } from '../../../shared/rep-condition';
import type { SuiteItem, SuiteTaxonomy } from '../../../shared/suite-format';
import { provisionEnvironment, type EnvironmentBackend } from '../environments';
import { prepareRep, type ToolBudget } from '../judge';
import type { ModelProvider, ModelSettings } from '../providers';
import { type Store } from '../store';
import { workspaceTemperaturePolicy } from '../store/faces/machine';
import { runJudgeRep, type JudgeRepResult } from './commit-rep';
import { syntheticJudgeFor } from './synthetic-judge';
import { simulatedProvider } from '../../../shared/catalogue/providers';

/** What one rep needs: the item and its cue, and either a model with its provider or a persona. */
export interface JudgeOneRequest {
  suiteId: string;
  item: SuiteItem;
  taxonomies: readonly SuiteTaxonomy[];
  condition: RepCondition;
  backend: EnvironmentBackend;
  budget: ToolBudget;
  /** A real model: its settings and the provider made from them (keys already resolved). */
  model: { settings: ModelSettings; provider: ModelProvider } | null;
  /** The synthetic judge (a simulation) when `model` is null. */
  synthetic?: { persona: string; label?: string; seed: string };
  signal: AbortSignal;
  /** Environment progress (image builds, snapshot copies). */
  onProgress: (line: string) => void;
  /** A model call is retried after `kind` (status) in `delayMs`. */
  onRetry: (info: { kind: string; status?: number; delayMs: number }) => void;
}

/** Runs and stores one rep; the environment is disposed whatever happens. */
export async function judgeOneRep(store: Store, request: JudgeOneRequest): Promise<JudgeRepResult> {
  const { item, condition, model } = request;
  const provisioned = await provisionEnvironment(item.environment, item, {
    backend: request.backend,
    signal: request.signal,
    onProgress: request.onProgress,
  });
  try {
    const settings = model?.settings;
    const providerKind = settings?.provider ?? simulatedProvider.kind;
    const prepared = prepareRep(item, request.taxonomies, condition, provisioned.environment, {
      providerKind,
      ...(settings ? { temperature: settings.temperature } : {}),
      ...(settings?.maxTokens ? { maxTokens: settings.maxTokens } : {}),
    });
    const persona = request.synthetic?.persona;
    const handle = model
      ? { provider: model.provider, providerKind, simulated: false }
      : syntheticJudgeFor({
          judge: {
            id: 'cli',
            provider: simulatedProvider.kind,
            model: request.synthetic?.label ?? persona ?? simulatedProvider.defaultModel,
            persona,
          },
          item,
          readout: prepared.input.readout,
          condition,
          repKey: request.synthetic?.seed ?? '0',
        });
    return await runJudgeRep(store, {
      input: prepared.input,
      provider: handle.provider,
      providerKind,
      model: settings?.model ?? `synthetic/${persona ?? ''}`,
      ...(settings ? { temperature: settings.temperature } : {}),
      ...(settings?.maxTokens ? { maxTokens: settings.maxTokens } : {}),
      budget: request.budget,
      ...(prepared.gate ? { gate: prepared.gate } : {}),
      condition: { ...prepared.record, budget: request.budget, backend: provisioned.backend },
      suiteId: request.suiteId,
      simulated: handle.simulated,
      ...('describeSimulation' in handle && handle.describeSimulation
        ? { describeSimulation: handle.describeSimulation }
        : {}),
      temperaturePolicy: workspaceTemperaturePolicy(store),
      signal: request.signal,
      retry: { onRetry: request.onRetry },
    });
  } finally {
    await provisioned.dispose();
  }
}
