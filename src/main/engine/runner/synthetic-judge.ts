import { EngineError } from '../errors';
import {
  syntheticCueOf,
  findPersona,
  loadPersonas,
  type Persona,
  createSyntheticProvider,
} from '../simulation';
import type { JudgeContext, JudgeHandle } from './execute';
import { simulatedProvider } from '../../../shared/catalogue/providers';

let personas: Persona[] | undefined;

/** The synthetic judge for one rep: an offline simulation, marked simulated everywhere. */
export function syntheticJudgeFor(context: JudgeContext): JudgeHandle {
  personas ??= loadPersonas();
  if (!context.judge.persona)
    throw new EngineError(
      'bad_request',
      `Judge ${context.judge.id} is synthetic but names no persona.`,
    );
  let persona: Persona;
  try {
    persona = findPersona(personas, context.judge.persona);
  } catch (error) {
    throw new EngineError('bad_request', (error as Error).message);
  }
  let provider: ReturnType<typeof createSyntheticProvider>;
  try {
    provider = createSyntheticProvider({
      item: context.item,
      persona,
      cue: syntheticCueOf(context.condition, context.readout),
      seed: context.condition.seed,
      repKey: context.repKey,
      itemKey: `${context.item.id}/${context.judge.id}`,
      readout: context.readout,
      ...(context.condition.category ? { cueCategories: [context.condition.category] } : {}),
      mitigations: context.condition.mitigations,
    });
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `The synthetic judge cannot judge item ${context.item.id}: ${(error as Error).message}`,
    );
  }
  return {
    provider,
    providerKind: simulatedProvider.kind,
    simulated: true,
    describeSimulation: () => provider.describe(),
  };
}
