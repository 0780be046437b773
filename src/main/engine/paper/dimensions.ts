/**
 * App. G evaluation dimensions (Table 7): names, scale, per-dataset applicability and how a flip
 * is measured. Used by the RQ3 mechanism analysis (§3.3); RQ1 / RQ2 use task success only.
 *
 * NOT in the paper: a description or rubric for any dimension (only the names and scales), and
 * the judge prompt wording for each. `id`s are ours; the figures print `task_success`,
 * `executable_success` and `completeness` in this snake_case form, the rest follow suit.
 *
 * Ambiguities: Table 7 prints "robustnessgeneralization" (converter dropped a line-break hyphen;
 * App. I calls it "robustness"); we restore "robustness-generalization". Fig. 10 shows an
 * aj_postgres case labelled "Dimension: executable_success" yet rendered as "completeness = 25",
 * while Table 7 lists completeness only for Deep Search and Terminal-Bench-2.0; we follow Table 7.
 */
import type { PaperDatasetId, PaperText } from './types';

export type DimensionId =
  | 'task_success'
  | 'state_correctness'
  | 'executable_success'
  | 'holistic_quality'
  | 'reasoning_process_quality'
  | 'completeness'
  | 'runtime_behavior'
  | 'robustness_generalization';

export interface PaperDimension {
  readonly id: DimensionId;
  /** Name as Table 7 prints it. */
  readonly name: string;
  /** Table 7 caption: binary = pass/fail; graded = 1–100. */
  readonly scale: 'binary' | 'graded';
  /** Only task success has a deterministic external verifier (App. G, App. M). */
  readonly hasVerifier: boolean;
}

/** The paper's "up to eight evaluation dimensions" (App. G). */
export const DIMENSIONS: readonly PaperDimension[] = [
  { id: 'task_success', name: 'task success', scale: 'binary', hasVerifier: true },
  { id: 'state_correctness', name: 'state correctness', scale: 'binary', hasVerifier: false },
  { id: 'executable_success', name: 'executable success', scale: 'binary', hasVerifier: false },
  { id: 'holistic_quality', name: 'holistic quality', scale: 'graded', hasVerifier: false },
  {
    id: 'reasoning_process_quality',
    name: 'reasoning-process quality',
    scale: 'graded',
    hasVerifier: false,
  },
  { id: 'completeness', name: 'completeness', scale: 'graded', hasVerifier: false },
  { id: 'runtime_behavior', name: 'runtime behavior', scale: 'graded', hasVerifier: false },
  {
    id: 'robustness_generalization',
    name: 'robustness-generalization',
    scale: 'graded',
    hasVerifier: false,
  },
];

/** Table 7 caption. */
export const DIMENSION_SCALES: PaperText = {
  text: 'Binary dimensions (task success, state correctness, executable success) are scored pass/fail; the rest are graded on a 1–100 scale.',
  source: 'Table 7',
  provenance: { kind: 'verbatim' },
};

/** Graded dimensions range (Table 7 caption, App. G). */
export const GRADED_SCALE = { min: 1, max: 100 } as const;

/** App. G: a graded rep counts as flipped when it deviates at least this much from the uncued mean. */
export const GRADED_FLIP_THRESHOLD_POINTS = 10;

/** App. G: the flip rule, verbatim. */
export const FLIP_RULE: PaperText = {
  text: 'A rep counts as flipped when its cued verdict moves past a threshold from that item’s uncued mean: for the binary dimensions, any change in the pass/fail verdict; for the 1 – 100 graded dimensions, a deviation of at least 10 points. This threshold gate is applied before the gold-harmful gate of section 3.3.',
  source: 'App. G',
  provenance: { kind: 'verbatim' },
};

/** App. G: ground truth for graded dimensions. */
export const GRADED_GROUND_TRUTH: PaperText = {
  text: 'For the graded dimensions there is no such oracle, so we treat the trajectory-aware meta-judge ensemble as a noisy ground truth and measure the cue’s effect as a shift relative to the judge’s own uncued verdict on the same item rather than against a gold label.',
  source: 'App. G',
  provenance: { kind: 'verbatim' },
};

/**
 * True when a cued rep counts as flipped (App. G). `uncued` is the item's uncued mean for a graded
 * dimension, or its uncued pass/fail verdict (1 / 0) for a binary one.
 */
export function isFlip(scale: 'binary' | 'graded', uncued: number, cued: number): boolean {
  if (scale === 'binary') return cued !== uncued;
  return Math.abs(cued - uncued) >= GRADED_FLIP_THRESHOLD_POINTS;
}

/** Table 7: dimensions judged per dataset, in the table's order. */
export const DIMENSIONS_BY_DATASET: Readonly<Record<PaperDatasetId, readonly DimensionId[]>> = {
  'aj-filesystem': [
    'task_success',
    'state_correctness',
    'executable_success',
    'holistic_quality',
    'reasoning_process_quality',
  ],
  'aj-postgres': [
    'task_success',
    'state_correctness',
    'executable_success',
    'holistic_quality',
    'reasoning_process_quality',
  ],
  'aj-search': ['task_success', 'completeness'],
  'terminal-bench-2': ['task_success', 'completeness'],
  'swe-bench-verified': [
    'task_success',
    'state_correctness',
    'executable_success',
    'holistic_quality',
    'reasoning_process_quality',
    'runtime_behavior',
    'robustness_generalization',
  ],
};

/** §3.1: the dimension held fixed for RQ1 (and the direction asymmetry). */
export const RQ1_DIMENSION: PaperText = {
  text: 'a single binary verdict of whether the agent completed the task successfully.',
  source: '§3.1',
  provenance: { kind: 'verbatim' },
};
