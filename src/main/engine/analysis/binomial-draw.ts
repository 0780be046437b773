/**
 * Exact binomial draws from a seeded uniform generator, for bootstraps that resample thousands of
 * items: drawing how many copies of each kind of item a resample holds costs about one standard
 * deviation of steps per kind instead of one step per item.
 */
import type { Random } from '../random';

const SMALL = 256;
const smallLogFactorials: number[] = [0];
for (let k = 1; k < SMALL; k += 1) {
  smallLogFactorials.push((smallLogFactorials[k - 1] as number) + Math.log(k));
}

/** ln k! (exact sums below 256, Stirling's series with three terms above; error < 1e-14). */
export function logFactorial(k: number): number {
  if (k < SMALL) return smallLogFactorials[k] as number;
  const inverse = 1 / k;
  const inverseSquared = inverse * inverse;
  return (
    k * Math.log(k) -
    k +
    0.5 * Math.log(2 * Math.PI * k) +
    inverse * (1 / 12 - inverseSquared * (1 / 360 - inverseSquared / 1260))
  );
}

/**
 * One draw from Binomial(trials, probability) by inversion, searching outward from the mode
 * (any order of the outcomes gives an exact inversion; starting at the mode makes the search
 * about one standard deviation long). Falls back to the last outcome on rounding.
 */
export function binomialDraw(trials: number, probability: number, random: Random): number {
  if (trials === 0 || probability <= 0) return 0;
  if (probability >= 1) return trials;
  const mode = Math.min(trials, Math.floor((trials + 1) * probability));
  const odds = probability / (1 - probability);
  const atMode = Math.exp(
    logFactorial(trials) -
      logFactorial(mode) -
      logFactorial(trials - mode) +
      mode * Math.log(probability) +
      (trials - mode) * Math.log1p(-probability),
  );
  let remaining = random() - atMode;
  if (remaining < 0) return mode;
  let below = mode;
  let belowMass = atMode;
  let above = mode;
  let aboveMass = atMode;
  while (below > 0 || above < trials) {
    if (above < trials) {
      aboveMass *= ((trials - above) / (above + 1)) * odds;
      above += 1;
      remaining -= aboveMass;
      if (remaining < 0) return above;
    }
    if (below > 0) {
      belowMass *= below / ((trials - below + 1) * odds);
      below -= 1;
      remaining -= belowMass;
      if (remaining < 0) return below;
    }
  }
  return mode;
}
