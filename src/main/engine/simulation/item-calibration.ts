/**
 * From the paper's item-level rates to the synthetic judge's per-rep draws. The paper's rates
 * (App. D, Table 5, Table 6) are item-level: each arm is judged three times and the majority is
 * the verdict (§3.1). A persona states those item-level rates; the judge draws per rep.
 *
 * Reps of one item are correlated, as a real judge's are (CueLab's model; the paper is silent):
 * each rep, with probability ρ (the persona's `repCorrelation`), follows the item's template
 * draws, shared by every rep of the item and judge, and otherwise draws on its own. Given the
 * template, reps are then independent, so an event with per-rep probability f is the majority
 * of three with probability
 *
 *   M(ρ, f) = f·m(ρ + (1 − ρ)·f) + (1 − f)·m((1 − ρ)·f),   m(x) = 3x² − 2x³.
 *
 * At ρ = 0 this is 3f² − 2f³ (independent reps: a 10% rate would show as 3%); at ρ = 1 it is f.
 * `repRate` inverts M, so the per-rep probability reproduces the item-level rate after the vote.
 */

/** Probability that the majority of three independent reps with probability `x` is true. */
export function majorityOfThree(x: number): number {
  return 3 * x * x - 2 * x * x * x;
}

/** M(ρ, f): the item-level rate of an event with per-rep probability `f` (module comment). */
export function itemRate(repProbability: number, correlation: number): number {
  const f = repProbability;
  const rho = correlation;
  return f * majorityOfThree(rho + (1 - rho) * f) + (1 - f) * majorityOfThree((1 - rho) * f);
}

/**
 * The per-rep probability whose item-level rate (after the majority of three) is `target`.
 * M is increasing in f on [0, 1] with M(0) = 0 and M(1) = 1, so bisection finds it.
 */
export function repRate(target: number, correlation: number): number {
  if (target <= 0) return 0;
  if (target >= 1) return 1;
  let low = 0;
  let high = 1;
  for (let step = 0; step < 60; step += 1) {
    const middle = (low + high) / 2;
    if (itemRate(middle, correlation) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
