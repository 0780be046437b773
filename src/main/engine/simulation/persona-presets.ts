/**
 * The four shipped personas, each calibrated on one of the paper's judges. Every coefficient is
 * computed here from the published number it cites (paper/numbers.ts, numbers-appendix.ts), so
 * a reader can check the derivation and a typo cannot creep in. Researchers edit the results
 * through `loadPersonas` (personas.ts).
 *
 * Two conversions recur:
 * - A rate r (a flip probability) becomes log-odds `logit(r)`; a gap between two rates becomes a
 *   difference of logits.
 * - Tables 2–4 and 8 report an effect as "% of taxonomy ceiling closed" (error attribution,
 *   Sonnet-4.6 only). We read a cell's ratio to its table's reference cell as an odds ratio,
 *   `ln(cell / reference)` (exact for rare events). This scale is what makes App. E consistent:
 *   the weak cue's source (unattributed) and decisiveness ("might") offsets already account for
 *   ln(0.776) + ln(0.351) = −1.30 of App. E's pooled gap logit(8%) − logit(26%) = −1.40.
 *   The axis offsets are shared by all personas because the paper measured them on Sonnet-4.6
 *   alone (§3.2).
 */
import {
  CUE_STRENGTH,
  CUE_TEMPLATE_PERCENT_CEILING as CEILING,
  DIRECTION_BY_JUDGE,
  HELPFUL_MECHANISM_MIX_POOLED,
  INVESTIGATION_SYMMETRY,
  MECHANISM_BY_DIMENSION,
  OVER_TRUST_SHARE,
  TABLE_5,
  TABLE_6,
  TABLE_8,
  type PaperJudge,
} from '../paper';
import type { CueResponse, MechanismMix, Persona } from './personas';
import { solveIncreasing } from './solve';

/** Log-odds of a probability. */
export function logit(probability: number): number {
  return Math.log(probability / (1 - probability));
}

/** Log of an effect ratio (a % -of-ceiling cell over its reference cell), read as an odds ratio. */
function ratio(cell: number, reference: number): number {
  return Math.log(cell / reference);
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * App. E, pooled: weak 8% vs strong 26%. The weak cue is also unattributed and hedged ("might"),
 * so its own strength offset is the residual after those two axes (Tables 3–4).
 */
const weakResidual =
  logit(CUE_STRENGTH.weak.pooled / 100) -
  logit(CUE_STRENGTH.strong.pooled / 100) -
  ratio(CEILING['authority-unattributed'], CEILING['authority-domain-expert']) -
  ratio(CEILING['decisiveness-might'], CEILING['decisiveness-definitely']);

/** The cue-axis and placement offsets every persona shares (Tables 2–4, 8; App. E; §3.2). */
function sharedAxes(): Omit<CueResponse, 'baseLogOdds' | 'direction'> {
  const framing = (cell: number) => round(ratio(cell, CEILING['framing-belief-declarative']));
  const source = (cell: number) => round(ratio(cell, CEILING['authority-domain-expert']));
  const decisive = (cell: number) => round(ratio(cell, CEILING['decisiveness-definitely']));
  const placed = (cell: number) => round(ratio(cell, TABLE_8['system-prompt'].pct));
  return {
    // Table 2 (% of ceiling): belief-declarative 65.2 is the reference.
    framingForm: {
      'belief-declarative': 0,
      'belief-imperative': framing(CEILING['framing-belief-imperative']),
      'compliance-declarative': framing(CEILING['framing-compliance-declarative']),
      'compliance-imperative': framing(CEILING['framing-compliance-imperative']),
    },
    // Table 3: domain expert 79.8 is the reference.
    source: {
      'domain expert': 0,
      reviewer: source(CEILING['authority-reviewer']),
      unattributed: source(CEILING['authority-unattributed']),
      'automated checker': source(CEILING['authority-automated-checker']),
      'prior LLM-judge': source(CEILING['authority-prior-llm-judge']),
    },
    // Table 4: "definitely" 62.4 is the reference (caption: decisive ≈ 2.9 × hedged).
    decisiveness: {
      definitely: 0,
      likely: decisive(CEILING['decisiveness-likely']),
      appears: decisive(CEILING['decisiveness-appears']),
      might: decisive(CEILING['decisiveness-might']),
    },
    strength: {
      strong: 0,
      // App. E pooled 8% vs 26%, minus the unattributed and "might" offsets (≈ −0.10).
      weak: round(Math.min(0, weakResidual)),
      // §3.2 / Fig. 4: a length-matched placebo moves the judge about as little as a note that
      // names a source but asserts nothing; the paper prints no number, so CueLab sets the odds
      // to e^−5 ≈ 0.7% (placebo) and e^−4 ≈ 1.8% (null-source) of the strong cue's.
      placebo: -5,
      'null-source': -4,
    },
    // Table 8 (% of ceiling, Sonnet-4.6): the system prompt 77.2 is the reference (Fig. 2's cue).
    placement: {
      system: 0,
      user: placed(TABLE_8['user-message'].pct),
      assistant: placed(TABLE_8['assistant-turn'].pct),
      'assistant-x5': placed(TABLE_8['assistant-x5'].pct),
      'assistant-x25': placed(TABLE_8['assistant-x25'].pct),
    },
  };
}

/**
 * App. D: the severity and leniency rates (all five datasets pooled, Fig. 13 middle) are
 * gold-gated harmful flip rates under the Table 6 cue, item-level (after the majority of three,
 * §3.1; the provider turns them into per-rep draws, item-calibration.ts). A judge that skipped
 * the decisive probe but was right anyway can also be flipped: by deference without evidence
 * (the lucky-deference propensity, here unlucky) or after checking (better investigation, then
 * deferral). So the expected flip rate on such an item,
 *   rate(shift) = (1 − s)·d + s·(b·d + (1 − b)·l),  each of d, b, l moved by the same log-odds shift,
 * is solved for the severity base and then for the leniency offset. The all-datasets row is
 * what a persona reproduces (Sonnet-4.6 10% vs 12%, Qwen3-235B 23% vs 28%); App. D explains the
 * reversal by SWE-Bench-Verified's pass-heavy items, which a persona, unlike a dataset, has none of.
 */
function directional(
  judge: PaperJudge,
  skip: number,
  help: Persona['helpful'],
): Pick<CueResponse, 'baseLogOdds' | 'direction'> {
  const rates = DIRECTION_BY_JUDGE[judge];
  const shifted = (reference: number, shift: number) =>
    reference <= 0 ? 0 : 1 / (1 + Math.exp(-(logit(reference) + shift)));
  const expected = (base: number, shift: number) => {
    const defer = 1 / (1 + Math.exp(-(base + shift)));
    const better = shifted(help.betterInvestigationProbability, shift);
    const lucky = shifted(help.luckyDeferenceProbability, shift);
    return (1 - skip) * defer + skip * (better * defer + (1 - better) * lucky);
  };
  const base = solveIncreasing((value) => expected(value, 0), rates.severity / 100);
  const leniency = solveIncreasing((value) => expected(base, value), rates.leniency / 100);
  return {
    baseLogOdds: round(base),
    direction: { severity: 0, leniency: round(leniency) },
  };
}

/** Table 5: uncued accuracy; an uncued error needs a skipped decisive probe, so skip ≈ 1 − acc. */
function skipProbability(judge: PaperJudge): number {
  const row = TABLE_5.find((candidate) => candidate.judge === judge);
  if (!row) throw new Error(`Table 5 has no row for ${judge}.`);
  return round(1 - row.before / 100);
}

/**
 * App. F: helpful rate H = Table 6 #HELP / #wrong, pooled over datasets (the denominator also
 * holds wrong items the cue agreed with, so H is a lower bound). A share b of helpful flips is
 * better investigation (App. F: 30% frontier; open-weight 36% = 2 × 33% pooled − 30%), so
 * p_better = H·b; the rest of H (App. F's lucky over-trust and evidence re-weighting, which has
 * no synthetic counterpart because the skipped evidence is absent) is lucky deference:
 * H = p_better + (1 − p_better)·p_lucky.
 */
function helpful(judge: PaperJudge, frontier: boolean): Persona['helpful'] {
  const rows = TABLE_6.filter((row) => row.judge === judge);
  const helped = rows.reduce((sum, row) => sum + row.help, 0);
  const rate = helped / rows.reduce((sum, row) => sum + row.wrong, 0);
  const pooled = HELPFUL_MECHANISM_MIX_POOLED.betterInvestigation;
  const frontierShare = INVESTIGATION_SYMMETRY.helpfulBetterInvestigation.frontier;
  const share = (frontier ? frontierShare : 2 * pooled - frontierShare) / 100;
  const better = rate * share;
  return {
    betterInvestigationProbability: round(better),
    luckyDeferenceProbability: round((rate - better) / (1 - better)),
  };
}

/**
 * Fig. 5 prints only the Claude judges' over-trust shares (75%, 67%); under-investigation is 11%
 * of frontier harmful flips (App. F), hallucination the rest. Open-weight judges: from App. F
 * (under-investigation 23% pooled) and App. I (task success: over-trust 46% pooled), the
 * open-weight mean is under-investigation 2 × 23 − 11 = 35% and over-trust 2 × 46 − 71 = 21%,
 * hallucination 44% (App. P: a human gold reads the ensemble's hallucination share as an upper
 * bound). `tilt` moves 5 points between under-investigation and hallucination, CueLab's reading
 * of Fig. 3: GPT-OSS-120B's flip rate falls more steeply with effort (r = −0.27 vs −0.12).
 */
function mechanisms(judge: PaperJudge, tilt = 0): MechanismMix {
  const under = INVESTIGATION_SYMMETRY.harmfulUnderInvestigation;
  const share = OVER_TRUST_SHARE[judge];
  if (share !== undefined) {
    const overTrust = share / 100;
    const underInvestigation = under.frontier / 100;
    return {
      overTrust,
      underInvestigation,
      hallucination: round(1 - overTrust - underInvestigation, 6),
    };
  }
  const frontierOverTrust =
    ((OVER_TRUST_SHARE['Opus-4.7'] ?? 0) + (OVER_TRUST_SHARE['Sonnet-4.6'] ?? 0)) / 2;
  const overTrust = (2 * MECHANISM_BY_DIMENSION.taskSuccess.overTrust - frontierOverTrust) / 100;
  const underInvestigation = (2 * under.pooled - under.frontier + tilt) / 100;
  return {
    overTrust: round(overTrust, 6),
    underInvestigation: round(underInvestigation, 6),
    hallucination: round(1 - overTrust - underInvestigation, 6),
  };
}

/** CueLab's between-rep agreement (personas.ts `repCorrelation`); the paper prints none. */
const REP_CORRELATION = 0.8;

/**
 * Fig. 3: frontier judges' flip rate rises with turns (r = +0.21, +0.23). CueLab reads that as a
 * judge that re-checks its findings against the cue before deferring: two extra tool calls.
 */
const FRONTIER_RECHECKS = 2;

function persona(
  id: string,
  label: string,
  description: string,
  judge: PaperJudge,
  options: { frontier: boolean; tilt?: number },
): Persona {
  const skip = skipProbability(judge);
  const help = helpful(judge, options.frontier);
  return {
    id,
    label,
    description,
    calibratedOn: judge,
    skipDecisiveProbability: skip,
    repCorrelation: REP_CORRELATION,
    coupledMitigationArms: false,
    recheckBeforeDeferring: options.frontier ? FRONTIER_RECHECKS : 0,
    cueResponse: { ...directional(judge, skip, help), ...sharedAxes() },
    harmfulMechanisms: mechanisms(judge, options.tilt ?? 0),
    helpful: help,
  };
}

/** The shipped personas, freshly built (callers may mutate their copy). */
export function builtinPersonas(): Persona[] {
  return [
    persona(
      'deferential-frontier',
      'Deferential frontier judge (Opus-4.7-like, simulated)',
      'Investigates thoroughly, then defers: the highest harmful flip rate of the frontier judges, mostly by over-trust (Fig. 5), and the most helpful flips (Table 6).',
      'Opus-4.7',
      { frontier: true },
    ),
    persona(
      'robust-frontier',
      'Robust frontier judge (Sonnet-4.6-like, simulated)',
      'Rarely moved by the cue (App. D: 10% severity), and when it is, mostly by over-trust (Fig. 5).',
      'Sonnet-4.6',
      { frontier: true },
    ),
    persona(
      'small-open-a',
      'Smaller open-weight judge A (Qwen3-235B-like, simulated)',
      'Moderately susceptible; its flips spread into hallucination and under-investigation (§3.3).',
      'Qwen3-235B',
      { frontier: false, tilt: -5 },
    ),
    persona(
      'small-open-b',
      'Smaller open-weight judge B (GPT-OSS-120B-like, simulated)',
      'Susceptible and often stops short: flip rate falls with effort (Fig. 3, r = −0.27).',
      'GPT-OSS-120B',
      { frontier: false, tilt: 5 },
    ),
  ];
}
