/**
 * Published appendix numbers, exactly as printed (percentages as the printed number).
 * Main tables (1, 5, 6): numbers.ts.
 *
 * Fig. 5 (harmful-flip mechanism mixture by judge) and Figs. 2, 4, 13, 14, 15, 17 are images; only
 * the numbers the text quotes are recorded here. The paper names the top over-trust judge
 * "Opus-4.6" in §1 and App. H but "Opus-4.7" everywhere else; we key it as 'Opus-4.7'.
 */
import type { PlacementId } from './placements';
import type { PaperDatasetId, PaperJudge } from './types';

/** Tables 2–4: % of taxonomy ceiling closed per cue template (keys = cue-templates.ts ids). */
export const CUE_TEMPLATE_PERCENT_CEILING = {
  'framing-belief-declarative': 65.2,
  'framing-belief-imperative': 46.2,
  'framing-compliance-declarative': 21.6,
  'framing-compliance-imperative': 23.9,
  'authority-domain-expert': 79.8,
  'authority-reviewer': 68.5,
  'authority-unattributed': 61.9,
  'authority-automated-checker': 53.5,
  'authority-prior-llm-judge': 38.1,
  'decisiveness-definitely': 62.4,
  'decisiveness-likely': 40.9,
  'decisiveness-appears': 35.3,
  'decisiveness-might': 21.9,
} as const;

/** Table 4 caption: "decisive language produces roughly 2.9 × the hedged effect". */
export const DECISIVE_OVER_HEDGED_RATIO = 2.9;

/** Table 8 (App. K): % of ceiling and 95% bootstrap CI per placement; n = 138 trajectories each. */
export const TABLE_8: Readonly<
  Record<PlacementId, { readonly pct: number; readonly ci95: readonly [number, number] }>
> = {
  'system-prompt': { pct: 77.2, ci95: [73.0, 81.3] },
  'user-message': { pct: 65.6, ci95: [60.6, 70.5] },
  'assistant-turn': { pct: 43.2, ci95: [38.2, 48.4] },
  'assistant-x5': { pct: 33.9, ci95: [29.4, 38.7] },
  'assistant-x25': { pct: 42.0, ci95: [37.6, 46.8] },
};
export const TABLE_8_N = 138;

export interface SeverityLeniency {
  readonly severity: number;
  readonly leniency: number;
}

/** App. D: gold-gated harmful flip rate (%) under a severity vs a leniency cue, by dataset. */
export const DIRECTION_BY_DATASET: Readonly<Record<PaperDatasetId, SeverityLeniency>> = {
  'aj-postgres': { severity: 61, leniency: 34 },
  'aj-filesystem': { severity: 50, leniency: 18 },
  'aj-search': { severity: 53, leniency: 14 },
  'terminal-bench-2': { severity: 28, leniency: 5 },
  'swe-bench-verified': { severity: 21, leniency: 36 },
};

/** App. D: by judge, all five datasets pooled. */
export const DIRECTION_BY_JUDGE: Readonly<Record<PaperJudge, SeverityLeniency>> = {
  'Opus-4.7': { severity: 43, leniency: 25 },
  'GPT-OSS-120B': { severity: 36, leniency: 13 },
  'Sonnet-4.6': { severity: 10, leniency: 12 },
  'Qwen3-235B': { severity: 23, leniency: 28 },
};

/** App. D: by judge, SWE-Bench-Verified excluded. */
export const DIRECTION_BY_JUDGE_EXCL_SWE: Readonly<Record<PaperJudge, SeverityLeniency>> = {
  'Opus-4.7': { severity: 55, leniency: 24 },
  'Qwen3-235B': { severity: 55, leniency: 24 },
  'GPT-OSS-120B': { severity: 33, leniency: 10 },
  'Sonnet-4.6': { severity: 29, leniency: 12 },
};

/** App. E: weak vs strong cue harmful flip rates (%). */
export const CUE_STRENGTH = {
  weak: {
    grandMean: 11,
    pooled: 8,
    perDatasetRange: [4, 15],
    perJudgeRange: { low: { judge: 'Sonnet-4.6', pct: 7 }, high: { judge: 'Qwen3-235B', pct: 14 } },
  },
  strong: { grandMean: 31, pooled: 26 },
} as const;

/**
 * App. L: fixed turn-bin edges (inclusive) for Fig. 3; 26+ is merged into the 16–25 marker; only
 * bins with at least MIN_REPS_PER_BIN gold-gated cued reps are plotted. Pearson r uses raw reps.
 */
export const EFFORT_BIN_EDGES: readonly (readonly [number, number | null])[] = [
  [1, 3],
  [4, 6],
  [7, 10],
  [11, 15],
  [16, 25],
  [26, null],
];
export const EFFORT_MIN_REPS_PER_BIN = 15;

/** Table 9: gold-gated cued reps per judge and per plotted bin (1–3, 4–6, 7–10, 11–15, 16–25). */
export const TABLE_9: Readonly<
  Record<PaperJudge, { readonly n: number; readonly perBin: readonly number[] }>
> = {
  'Opus-4.7': { n: 2231, perBin: [224, 556, 718, 443, 290] },
  'Sonnet-4.6': { n: 2192, perBin: [17, 294, 618, 607, 656] },
  'Qwen3-235B': { n: 2091, perBin: [330, 525, 285, 235, 716] },
  'GPT-OSS-120B': { n: 1923, perBin: [551, 195, 290, 340, 547] },
};

/** Fig. 3 caption: Pearson r between turns taken and harmful flip (cued arm, task success). */
export const EFFORT_PEARSON_R: Readonly<Record<PaperJudge, number>> = {
  'Opus-4.7': 0.21,
  'Sonnet-4.6': 0.23,
  'GPT-OSS-120B': -0.27,
  'Qwen3-235B': -0.12,
};

/** Table 10: Cohen's κ vs annotators A1–A3, and accuracy (%) / κ vs the human gold (n = 97). */
export const TABLE_10 = [
  { classifier: 'Opus-4.7', kappa: [0.45, 0.54, 0.64], goldAcc: 77.3, goldKappa: 0.57 },
  { classifier: 'Llama-4-Maverick', kappa: [0.25, 0.3, 0.31], goldAcc: 68.4, goldKappa: 0.29 },
  { classifier: 'DeepSeek-R1', kappa: [0.13, 0.1, 0.18], goldAcc: 34.4, goldKappa: 0.14 },
  { classifier: 'Ensemble (majority)', kappa: [0.41, 0.46, 0.63], goldAcc: 74.2, goldKappa: 0.53 },
] as const;

/** App. P: human annotation of the 97 task-success harmful flips. */
export const HUMAN_VALIDATION = {
  n: 97,
  pairwiseKappa: [0.573, 0.671, 0.695],
  fleissKappa: 0.646,
  unanimousPct: 76.3,
  goldMixturePct: { overTrust: 73, underInvestigation: 18, hallucination: 9 },
  overTrustRecovered: { ensemble: 53, gold: 59 },
  hallucinationLabels: { ensemble: 26, gold: 9 },
  agreementPct: { 'swe-bench-verified': 94.1, 'aj-postgres': 65, 'terminal-bench-2': 65 },
  liuEtAlKappaRange: [0.72, 0.77],
} as const;

/** Abstract / §1 / Fig. 5: over-trust share (%) of harmful flips for the two Claude judges. */
export const OVER_TRUST_SHARE: Readonly<Partial<Record<PaperJudge, number>>> = {
  'Opus-4.7': 75,
  'Sonnet-4.6': 67,
};

/** App. F / Fig. 15: mechanism mixture (%) of helpful flips, pooled over the four judges. */
export const HELPFUL_MECHANISM_MIX_POOLED = {
  overTrust: 29,
  betterInvestigation: 33,
  evidenceReweighting: 38,
} as const;

/** App. F: better investigation (helpful) vs under-investigation (harmful), pooled / frontier. */
export const INVESTIGATION_SYMMETRY = {
  helpfulBetterInvestigation: { pooled: 33, frontier: 30 },
  harmfulUnderInvestigation: { pooled: 23, frontier: 11 },
  openWeightHelpfulOverTrustRange: [36, 38],
} as const;

/** App. F / §4: the undefended cue corrects an already-wrong verdict this often (%). */
export const UNDEFENDED_HELPFUL_PCT = 30;

/** App. I / Fig. 17: harmful mechanism shares (%) by kind of dimension, pooled over judges. */
export const MECHANISM_BY_DIMENSION = {
  taskSuccess: { hallucination: 33, overTrust: 46 },
  gradedOpenEnded: { overTrustRange: [67, 68], hallucinationRange: [11, 19] },
} as const;

/** App. R: approximate compute. */
export const COMPUTE = { judgeTrajectories: 70_000, metaJudgeCalls: 20_000 } as const;
