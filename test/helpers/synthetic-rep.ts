/** One synthetic-judge rep through the real prepare step and judge loop, for engine tests. */
import type { JudgeEnvironment } from '../../src/main/engine/contract/environment';
import { toolBudget } from '../../src/main/engine/judge/budget';
import { prepareRep } from '../../src/main/engine/judge/prepare';
import { runJudgeRep, type JudgeRepResult } from '../../src/main/engine/runner/commit-rep';
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import type { Persona } from '../../src/main/engine/simulation/personas';
import {
  createSyntheticProvider,
  type SimulationRecord,
} from '../../src/main/engine/simulation/provider';
import type { Store } from '../../src/main/engine/store/database';
import { repConditionSchema, type RepConditionInput } from '../../src/shared/rep-condition';
import type { SuiteItem } from '../../src/shared/suite-format';

/** Runs one rep of `persona` on `item` in `environment`; returns it with its simulation record. */
export async function runSyntheticRep(
  store: Store,
  target: { item: SuiteItem; environment: JudgeEnvironment; suiteId: string },
  persona: Persona,
  conditionInput: RepConditionInput = {},
): Promise<JudgeRepResult & { simulation: SimulationRecord }> {
  const { item, environment, suiteId } = target;
  const condition = repConditionSchema.parse(conditionInput);
  const prepared = prepareRep(item, [], condition, environment);
  const provider = createSyntheticProvider({
    item,
    persona,
    cue: syntheticCueOf(condition, prepared.input.readout),
    seed: condition.seed,
    repKey: '0',
    readout: prepared.input.readout,
  });
  const result = await runJudgeRep(store, {
    input: prepared.input,
    provider,
    providerKind: provider.kind,
    model: `synthetic:${persona.id}`,
    budget: toolBudget(40),
    condition: prepared.record,
    suiteId,
    simulated: true,
    describeSimulation: () => provider.describe(),
  });
  return { ...result, simulation: provider.describe() };
}
