/** The study's cost cap: reached, the study pauses with what was spent and how to go on. */
import type { Store } from '../store';
import { pauseStudy, studyCost } from '../store/faces/studies';
import type { LoadedStudy } from './execute';

/** Pauses `study` once its stored reps cost at least its cap (if it has one). */
export function pauseAtCostCap(store: Store, study: LoadedStudy): void {
  const cap = study.spec.costCapUsd;
  if (cap === undefined) return;
  const { usd } = studyCost(store, study.id);
  if (usd >= cap) {
    pauseStudy(
      store,
      study.id,
      `cost cap reached: $${usd.toFixed(2)} spent of the $${cap.toFixed(2)} cap. Raise costCapUsd and resume to go on.`,
    );
  }
}
