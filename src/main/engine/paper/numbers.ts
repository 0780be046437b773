/**
 * Published numbers (main results), exactly as printed. Percentages are stored as the printed
 * number (48 for "48%"). Appendix numbers (ablation, placement, direction, effort, agreement,
 * mechanism mixtures): numbers-appendix.ts.
 */
import type { MitigationId } from './mitigations';
import type { PaperDatasetId, PaperJudge } from './types';

/** One Table 6 row (strong cue, per judge × dataset). */
export interface Table6Row {
  readonly judge: PaperJudge;
  readonly dataset: PaperDatasetId;
  /** Items with both arms and a gold label. */
  readonly n: number;
  /** Items the uncued judge got right (harmful-flip denominator). */
  readonly gate: number;
  /** Harmful flips (#HF) and their rate (%). */
  readonly hf: number;
  readonly hfPct: number;
  /** Items the uncued judge got wrong (helpful-flip denominator). */
  readonly wrong: number;
  /** Helpful flips (#HELP) and their rate (%). */
  readonly help: number;
  readonly helpPct: number;
  /** Accuracy (%) before the cue, then adversarial / untargeted after it. */
  readonly accBefore: number;
  readonly accAdversarial: number;
  readonly accUntargeted: number;
}

function r(
  judge: PaperJudge,
  dataset: PaperDatasetId,
  ...v: [number, number, number, number, number, number, number, number, number, number]
): Table6Row {
  const [n, gate, hf, hfPct, wrong, help, helpPct, accBefore, accAdversarial, accUntargeted] = v;
  return {
    judge,
    dataset,
    n,
    gate,
    hf,
    hfPct,
    wrong,
    help,
    helpPct,
    accBefore,
    accAdversarial,
    accUntargeted,
  };
}

/** Table 6 (App. C): flip counts and accuracy per judge × dataset, in the paper's row order. */
export const TABLE_6: readonly Table6Row[] = [
  r('Opus-4.7', 'aj-postgres', 82, 61, 29, 48, 21, 15, 71, 74, 39, 57),
  r('Opus-4.7', 'aj-filesystem', 129, 107, 43, 40, 22, 15, 68, 83, 50, 61),
  r('Opus-4.7', 'aj-search', 156, 113, 41, 36, 43, 35, 81, 72, 46, 69),
  r('Opus-4.7', 'terminal-bench-2', 112, 71, 28, 39, 41, 18, 44, 63, 38, 54),
  r('Opus-4.7', 'swe-bench-verified', 500, 395, 146, 37, 105, 67, 64, 79, 50, 63),
  r('Sonnet-4.6', 'aj-postgres', 82, 57, 15, 26, 25, 15, 60, 70, 51, 70),
  r('Sonnet-4.6', 'aj-filesystem', 129, 97, 10, 10, 32, 24, 75, 75, 67, 86),
  r('Sonnet-4.6', 'aj-search', 156, 110, 30, 27, 46, 34, 74, 71, 51, 73),
  r('Sonnet-4.6', 'terminal-bench-2', 111, 74, 13, 18, 37, 0, 0, 67, 55, 55),
  r('Sonnet-4.6', 'swe-bench-verified', 500, 393, 10, 3, 107, 8, 7, 79, 77, 78),
  r('Qwen3-235B', 'aj-postgres', 83, 47, 36, 77, 36, 34, 94, 57, 13, 54),
  r('Qwen3-235B', 'aj-filesystem', 129, 76, 43, 57, 53, 41, 77, 59, 26, 57),
  r('Qwen3-235B', 'aj-search', 156, 107, 15, 14, 49, 13, 27, 69, 59, 67),
  r('Qwen3-235B', 'terminal-bench-2', 112, 85, 28, 33, 27, 12, 44, 76, 51, 62),
  r('Qwen3-235B', 'swe-bench-verified', 500, 392, 47, 12, 108, 26, 24, 78, 69, 74),
  r('GPT-OSS-120B', 'aj-postgres', 83, 46, 22, 48, 37, 25, 68, 55, 29, 59),
  r('GPT-OSS-120B', 'aj-filesystem', 129, 86, 25, 29, 43, 13, 30, 67, 47, 57),
  r('GPT-OSS-120B', 'aj-search', 156, 109, 7, 6, 47, 10, 21, 70, 65, 72),
  r('GPT-OSS-120B', 'terminal-bench-2', 112, 93, 13, 14, 19, 4, 21, 83, 71, 75),
  r('GPT-OSS-120B', 'swe-bench-verified', 500, 357, 129, 36, 143, 68, 48, 71, 46, 59),
];

/** One Table 5 row: end-to-end accuracy (%) under the cue, per judge (N ≈ 980 each). */
export interface Table5Row {
  readonly judge: PaperJudge;
  readonly before: number;
  readonly hf: number;
  readonly adversarial: number;
  readonly help: number;
  readonly untargeted: number;
}

/** Table 5 (App. C), in the paper's row order. */
export const TABLE_5: readonly Table5Row[] = [
  { judge: 'Opus-4.7', before: 76.3, hf: 287, adversarial: 47.0, help: 150, untargeted: 62.3 },
  { judge: 'Sonnet-4.6', before: 74.7, hf: 78, adversarial: 66.8, help: 81, untargeted: 75.1 },
  { judge: 'Qwen3-235B', before: 72.1, hf: 169, adversarial: 54.9, help: 126, untargeted: 67.8 },
  { judge: 'GPT-OSS-120B', before: 70.5, hf: 196, adversarial: 50.5, help: 120, untargeted: 62.8 },
];

/** App. C: "sharing one denominator per judge ( N ≈ 980 items with both arms and a gold label)". */
export const TABLE_5_APPROX_N = 980;

/** One Table 1 row: harmful / helpful flip rate (%) before and after a mitigation. */
export interface Table1Row {
  readonly mitigation: MitigationId;
  /** Row label as printed (the learned skill row is printed "[learned skill]"). */
  readonly printedLabel: string;
  readonly harmfulBefore: number;
  readonly harmfulAfter: number;
  readonly helpfulBefore: number;
  readonly helpfulAfter: number;
}

/** Table 1 (§3.4): Sonnet-4.6, system-prompt cue, pooled over the five datasets. */
export const TABLE_1: readonly Table1Row[] = [
  {
    mitigation: 'guard-instruction',
    printedLabel: 'guard instruction',
    harmfulBefore: 18,
    harmfulAfter: 5,
    helpfulBefore: 30,
    helpfulAfter: 12,
  },
  {
    mitigation: 'cite-evidence',
    printedLabel: 'cite evidence',
    harmfulBefore: 18,
    harmfulAfter: 16,
    helpfulBefore: 30,
    helpfulAfter: 19,
  },
  {
    mitigation: 'learned-skill',
    printedLabel: '[learned skill]',
    harmfulBefore: 18,
    harmfulAfter: 8,
    helpfulBefore: 30,
    helpfulAfter: 13,
  },
  {
    mitigation: 'sufficiency-gate',
    printedLabel: 'sufficiency gate',
    harmfulBefore: 18,
    harmfulAfter: 16,
    helpfulBefore: 30,
    helpfulAfter: 29,
  },
];

/**
 * Abstract: a single cue "overturns up to 40% of a tool-using judge’s correct verdicts". Printed as
 * is; note that individual Table 6 cells go higher (Qwen3-235B on AJ-Postgres: 77%).
 */
export const HEADLINE_MAX_HARMFUL_PCT = 40;
