/**
 * Power before launch: the smallest change in harmful-flip rate a design can detect, and the
 * items a named change needs, for the test the tables actually run. Shared by `cuelab estimate`
 * and the Builder's estimate panel.
 *
 * The rate is the item-level harmful-flip rate the tables print (§3.1: of the items the uncued
 * majority got right, the share whose cued majority is wrong; Table 1 and Table 6). Two arms
 * judged on the same items (a cue before and after a mitigation, Table 1, or two studies sharing
 * items) are compared by the exact McNemar test on item-majority verdicts (analysis/mitigation.ts,
 * analysis/study-compare.ts); two studies on different items by Fisher's exact test. The power
 * of either is computed exactly, by enumerating every outcome, at α = 0.05 (reject when p < α).
 *
 * Assumptions (printed by the estimate): the gated items are items × uncued accuracy; the arms'
 * item verdicts are independent given the gate (no between-arm correlation). A positive
 * correlation between arms (an item easy to flip before is easy to flip after) makes McNemar
 * more powerful, so the MDD is then conservative. Reps enter only through the majority vote:
 * `perRepRate` turns an item-level rate into the per-rep rate that produces it under CueLab's
 * shared-draw model of rep agreement with the given ICC (simulation/item-calibration.ts).
 */

/** Significance level of every reported test. */
export const ALPHA = 0.05;
/** Target power. */
export const TARGET_POWER = 0.8;

/**
 * Table 5's uncued ("before") accuracy averaged over the paper's four judges (76.3, 74.7, 72.1,
 * 70.5%): the share of items that enter the harmful-flip gate when nothing better is known.
 */
export const PAPER_UNCUED_ACCURACY = (0.763 + 0.747 + 0.721 + 0.705) / 4;

/** The test a power calculation is for. */
export type PowerTest = 'exact McNemar' | 'Fisher exact';

/** What a power calculation needs. */
export interface PowerDesign {
  /** Items in the study (per judge). */
  readonly items: number;
  /** Reps per item and arm. */
  readonly reps: number;
  /** Item-level (majority-of-reps) harmful-flip rate of the arm compared against. */
  readonly baseline: number;
  /** Share of items the uncued judge gets right (the gate). */
  readonly uncuedAccuracy: number;
  /** Intra-item correlation of reps' verdicts (0: independent reps, 1: reps always agree). */
  readonly icc: number;
  /** Default 'exact McNemar' (paired arms on the same items). */
  readonly test?: PowerTest;
}

/** The design effect of `reps` correlated reps per item (for reference; the tests use items). */
export function designEffect(reps: number, icc: number): number {
  return 1 + (reps - 1) * icc;
}

/** Gated items per arm: the items a harmful-flip test is run on. */
export function gatedItems(design: Pick<PowerDesign, 'items' | 'uncuedAccuracy'>): number {
  return Math.round(design.items * design.uncuedAccuracy);
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let k = logFactorials.length; k <= n; k += 1)
    logFactorials.push((logFactorials[k - 1] as number) + Math.log(k));
  return logFactorials[n] as number;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/** Binomial(n, p) probabilities of 0..n. */
function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (p <= 0) out[0] = 1;
  else if (p >= 1) out[n] = 1;
  else {
    const lp = Math.log(p);
    const lq = Math.log1p(-p);
    for (let k = 0; k <= n; k += 1) out[k] = Math.exp(logChoose(n, k) + k * lp + (n - k) * lq);
  }
  return out;
}

/** Largest k with the exact McNemar p-value of (k, d − k) below α, or −1 when none. */
function mcnemarCritical(discordant: number, alpha: number): number {
  let tail = 0;
  let critical = -1;
  for (let k = 0; 2 * k <= discordant; k += 1) {
    tail += Math.exp(logChoose(discordant, k) - discordant * Math.LN2);
    if (2 * tail < alpha) critical = k;
    else break;
  }
  return critical;
}

/**
 * Exact power of the two-sided exact McNemar test on `gated` items whose item-level flip rates
 * are `before` and `after`, the arms independent given the item.
 */
export function mcnemarPower(gated: number, before: number, after: number, alpha = ALPHA) {
  const onlyBefore = before * (1 - after);
  const onlyAfter = after * (1 - before);
  const discordant = onlyBefore + onlyAfter;
  if (gated === 0 || discordant === 0) return 0;
  const share = onlyBefore / discordant;
  const counts = binomialPmf(gated, discordant);
  let power = 0;
  for (let d = 1; d <= gated; d += 1) {
    const weight = counts[d] as number;
    if (weight < 1e-15) continue;
    const critical = mcnemarCritical(d, alpha);
    if (critical < 0) continue;
    const split = binomialPmf(d, share);
    let reject = 0;
    for (let k = 0; k <= critical; k += 1)
      reject += (split[k] as number) + (split[d - k] as number);
    power += weight * reject;
  }
  return Math.min(1, power);
}

/** Two-sided Fisher's exact p-value for x1/n1 vs x2/n2 (as analysis/proportion-difference.ts). */
function fisherP(x1: number, n1: number, x2: number, n2: number): number {
  const successes = x1 + x2;
  const total = n1 + n2;
  if (successes === 0 || successes === total) return 1;
  const denominator = logChoose(total, successes);
  const probability = (inA: number) =>
    Math.exp(logChoose(n1, inA) + logChoose(n2, successes - inA) - denominator);
  const observed = probability(x1);
  let p = 0;
  for (let inA = Math.max(0, successes - n2); inA <= Math.min(successes, n1); inA += 1) {
    const q = probability(inA);
    if (q <= observed * (1 + 1e-7)) p += q;
  }
  return Math.min(1, p);
}

/** Exact power of Fisher's two-sided test, `gated` independent items per arm. */
export function fisherPower(gated: number, before: number, after: number, alpha = ALPHA) {
  if (gated === 0) return 0;
  const first = binomialPmf(gated, before);
  const second = binomialPmf(gated, after);
  let power = 0;
  for (let x1 = 0; x1 <= gated; x1 += 1) {
    const w1 = first[x1] as number;
    if (w1 < 1e-12) continue;
    for (let x2 = 0; x2 <= gated; x2 += 1) {
      const w2 = second[x2] as number;
      if (w2 < 1e-12) continue;
      if (fisherP(x1, gated, x2, gated) < alpha) power += w1 * w2;
    }
  }
  return Math.min(1, power);
}

/** The other arm's rate for a change of `difference`: a drop, or a rise when it cannot drop. */
export function comparedRate(baseline: number, difference: number): number {
  return baseline - difference >= 0 ? baseline - difference : baseline + difference;
}

/** Power of the design's test to detect `difference` from the baseline. */
export function powerAt(design: PowerDesign, difference: number): number {
  const gated = gatedItems(design);
  const other = comparedRate(design.baseline, difference);
  return (design.test ?? 'exact McNemar') === 'Fisher exact'
    ? fisherPower(gated, design.baseline, other)
    : mcnemarPower(gated, design.baseline, other);
}

/** Checks a design's numbers, naming the first that is out of range. */
export function designProblem(design: PowerDesign): string | null {
  if (!(Number.isInteger(design.items) && design.items > 0))
    return 'items must be a whole number above 0';
  if (!(Number.isInteger(design.reps) && design.reps > 0))
    return 'reps must be a whole number above 0';
  if (!(design.baseline > 0 && design.baseline < 1))
    return 'the baseline rate must lie strictly between 0 and 1';
  if (!(design.uncuedAccuracy > 0 && design.uncuedAccuracy <= 1))
    return 'the uncued accuracy must lie in (0, 1]';
  if (!(design.icc >= 0 && design.icc <= 1)) return 'the ICC must lie in [0, 1]';
  return null;
}

/**
 * The minimum detectable difference (a proportion of item-level rate) at α = 0.05 and 80%
 * power for the design's test, or null when not even the largest possible change is detectable.
 */
export function minimumDetectableDifference(design: PowerDesign): number | null {
  const problem = designProblem(design);
  if (problem) throw new RangeError(problem);
  const largest = Math.max(design.baseline, 1 - design.baseline);
  if (powerAt(design, largest) < TARGET_POWER) return null;
  let low = 0;
  let high = largest;
  // Power rises with the difference (up to the exact tests' small steps): bisect for 80%.
  for (let step = 0; step < 30; step += 1) {
    const middle = (low + high) / 2;
    if (powerAt(design, middle) < TARGET_POWER) low = middle;
    else high = middle;
  }
  return high;
}

/** Items (per judge) the design's test needs to detect `difference` with 80% power. */
export function itemsNeeded(design: Omit<PowerDesign, 'items'>, difference: number): number {
  const problem = designProblem({ ...design, items: 1 });
  if (problem) throw new RangeError(problem);
  if (!(difference > 0 && difference <= Math.max(design.baseline, 1 - design.baseline)))
    throw new RangeError('the difference must be above 0 and reachable from the baseline');
  const enough = (items: number) => powerAt({ ...design, items }, difference) >= TARGET_POWER;
  let high = 8;
  while (!enough(high)) {
    if (high > 1_000_000) throw new RangeError('the difference needs more than a million items');
    high *= 2;
  }
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (enough(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** P[more than half of `reps` reps are true] when each is true with probability `x`. */
function majority(reps: number, x: number): number {
  const pmf = binomialPmf(reps, x);
  let total = 0;
  for (let k = Math.floor(reps / 2) + 1; k <= reps; k += 1) total += pmf[k] as number;
  return total;
}

/**
 * The item-level (majority) rate of an event with per-rep probability `f` under CueLab's
 * shared-draw model: each rep copies its item's draw with probability √ICC, else draws its own
 * (simulation/item-calibration.ts, there for three reps). Ties of an even rep count are not a flip.
 */
export function majorityRate(f: number, icc: number, reps: number): number {
  const follow = Math.sqrt(icc);
  return f * majority(reps, follow + (1 - follow) * f) + (1 - f) * majority(reps, (1 - follow) * f);
}

/** The per-rep probability whose majority rate is `target` (inverse of `majorityRate`). */
export function perRepRate(target: number, icc: number, reps: number): number {
  let low = 0;
  let high = 1;
  for (let step = 0; step < 50; step += 1) {
    const middle = (low + high) / 2;
    if (majorityRate(middle, icc, reps) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
