/**
 * Creates a study and runs it to the end with a synthetic persona as every judge: the real
 * runner, queue and SQLite store, no model server.
 */
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import type { Persona } from '../../src/main/engine/simulation/personas';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import { createStudy } from '../../src/main/engine/runner/create-study';
import type { JudgeContext } from '../../src/main/engine/runner/execute';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import type { Store } from '../../src/main/engine/store/database';
import type { StudySpec } from '../../src/shared/study-spec';
import type { SuiteItem } from '../../src/shared/suite-format';

/** Runs `spec` over `items` with `persona` judging; returns the study id once idle. */
export async function runSyntheticStudy(
  store: Store,
  spec: StudySpec,
  items: readonly SuiteItem[],
  persona: Persona,
): Promise<string> {
  const studyId = createStudy(store, spec, items);
  const judgeFor = (context: JudgeContext) => {
    const provider = createSyntheticProvider({
      item: context.item,
      persona,
      cue: syntheticCueOf(context.condition, context.readout),
      seed: context.condition.seed,
      repKey: context.repKey,
      readout: context.readout,
    });
    const describeSimulation = () => provider.describe();
    return { provider, providerKind: 'synthetic' as const, simulated: true, describeSimulation };
  };
  const deps = { ...workspaceRunnerDeps(store, { env: {} }), judgeFor };
  const runner = new StudyRunner(deps, { concurrency: 3, studyIds: [studyId], pollMs: 10 });
  runner.start();
  await runner.whenIdle();
  await runner.stop();
  return studyId;
}
