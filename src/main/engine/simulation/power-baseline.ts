/**
 * The numbers a synthetic judge's persona gives the power calculation before launch
 * (src/shared/power.ts): its harmful-flip rate at the reference cell and how strongly its reps
 * agree. A real judge has neither until it has run; the user enters a baseline instead.
 */
import {
  designEffect,
  minimumDetectableDifference,
  PAPER_UNCUED_ACCURACY,
} from '../../../shared/power';
import type { StudySpec } from '../../../shared/study-spec';
import { logistic } from './cue-model';
import { findPersona, loadPersonas } from './personas';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';

/** The power lines of an estimate. */
export interface StudyPower {
  readonly baseline: number;
  readonly baselineSource: string;
  readonly uncuedAccuracy: number;
  readonly icc: number;
  readonly designEffect: number;
  /** As a proportion; null when no change is detectable. */
  readonly minimumDetectableDifference: number | null;
}

/**
 * Power for the spec's first synthetic judge, or null when it has none (or too few items). The
 * baseline is the persona's deferral at its reference cell (the §3.1 strong cue in the system
 * prompt, severity, App. D); the ICC is the square of its rep agreement (two reps agree through
 * the shared draw with probability repCorrelation², personas.ts); the gate share is Table 5's
 * mean uncued accuracy. The MDD is for the exact McNemar test on item-majority verdicts.
 */
export function syntheticPower(spec: StudySpec, items: number): StudyPower | null {
  const judge = spec.judges.find((candidate) => isSimulatedProvider(candidate.provider));
  if (!judge?.persona || items === 0) return null;
  let persona;
  try {
    persona = findPersona(loadPersonas(), judge.persona);
  } catch {
    return null;
  }
  const baseline = logistic(persona.cueResponse.baseLogOdds);
  const icc = persona.repCorrelation ** 2;
  return {
    baseline,
    baselineSource: `synthetic persona ${persona.id}, a simulation: strong cue, system prompt, severity`,
    uncuedAccuracy: PAPER_UNCUED_ACCURACY,
    icc,
    designEffect: designEffect(spec.reps, icc),
    minimumDetectableDifference: minimumDetectableDifference({
      items,
      reps: spec.reps,
      baseline,
      uncuedAccuracy: PAPER_UNCUED_ACCURACY,
      icc,
    }),
  };
}
