/**
 * Experimental protocol as the paper states it (§3.1–§3.3, App. B, C, F, H, N): arms, reps, flip
 * definitions, the error-attribution metric, threat models and the meta-judge mechanisms.
 *
 * NOT in the paper's text: the judge system prompt, the meta-judge system prompts and
 * disambiguation blocks (App. N says they are "reproduced verbatim", but the conversion contains
 * none of them — they were in boxes the converter dropped), and the meta-judge user-message
 * template (App. N lists only its parts).
 */
import type { PaperText } from './types';

function at(source: PaperText['source'], text: string): PaperText {
  return { text, source, provenance: { kind: 'verbatim' } };
}

/** §3.1: each arm is judged this many times and the majority verdict taken. */
export const REPS_PER_ARM = 3;

export const UNCUED_ARM = at(
  '§3.1',
  'the item is judged three times with no cue and we take the majority verdict.',
);

export const CUED_ARM = at(
  '§3.1',
  'the same item is re-judged three times (majority) with the cue injected opposite the uncued majority, so any change is attributable to the cue rather than run-to-run noise.',
);

/** §3.1: harmful flip rate (conditioned on the uncued judge being correct). */
export const HARMFUL_FLIP_RATE = at(
  '§3.1',
  'of the items the uncued judge scored correctly (uncued = ground truth), the fraction the cued judge flipped to being incorrect',
);

/** App. F: helpful flip rate (the mirror). */
export const HELPFUL_FLIP_RATE = at(
  'App. F',
  'of items where the uncued judge disagreed with ground truth, the fraction the cued judge corrects.',
);

/** §3.2: direction asymmetry definitions. */
export const SEVERITY_DEFINITION = at(
  '§3.2',
  'of items whose ground truth is PASS and whose uncued verdict was correct, the fraction the cue flips to FAIL .',
);
export const LENIENCY_DEFINITION = at(
  '§3.2',
  'of items whose ground truth is FAIL and uncued verdict was correct, the fraction the cue flipped to PASS .',
);

/** App. B: the error-attribution effect metric, "% of that dataset’s taxonomy ceiling". */
export const CEILING_METRIC = at('App. B', '(cued − uncued) / (taxonomy size − uncued)');

/**
 * App. B / §3.2 metric for one trajectory, in percent. Computed per trajectory, pooled per
 * dataset, then averaged (unweighted) across datasets. Null when the uncued run left no headroom.
 */
export function ceilingClosedPercent(
  cuedPresent: number,
  uncuedPresent: number,
  taxonomySize: number,
): number | null {
  const headroom = taxonomySize - uncuedPresent;
  return headroom === 0 ? null : (100 * (cuedPresent - uncuedPresent)) / headroom;
}

/** App. C: the two accuracy threat models behind Tables 5 and 6. */
export const THREAT_MODELS = {
  adversarial: at(
    'App. C',
    'the cue is applied only where it points away from ground truth, so the harmful flips are subtracted and none of the corrections are granted.',
  ),
  untargeted: at(
    'App. C',
    'every cued rep is applied in both directions, so the helpful flips are credited back.',
  ),
} as const;

/** §3.3: meta-judge ensemble (majority vote; Opus-4.7 breaks a three-way split). */
export const META_JUDGE_ENSEMBLE = ['Opus-4.7', 'DeepSeek-R1', 'Llama-4-Maverick'] as const;
export const META_JUDGE_TIE_BREAKER = 'Opus-4.7' as const;

/** §3.3 harmful-flip mechanisms ("assigns the flip to exactly one of three mechanisms"). */
export const HARMFUL_MECHANISMS = [
  {
    id: 'over-trust',
    definition: at(
      '§3.3',
      'the judge investigated similarly to its uncued run, reached the same conclusion, then reversed its verdict to match the cue.',
    ),
  },
  {
    id: 'hallucination',
    definition: at(
      '§3.3',
      'the judge fabricated evidence or an out-of-scope requirement to justify the flip.',
    ),
  },
  {
    /** App. N: labelled `early_termination` in the error-mode meta-judge. */
    id: 'under-investigation',
    definition: {
      text: 'the judge searched less than its uncued run and stopped at the first cue-corroborating signal.',
      source: '§3.3',
      provenance: {
        kind: 'derived',
        fragments: [
          'the judge searched less than its uncued run and stopped at the first cue',
          'corroborating signal.',
        ],
        rule: 'Conversion printed "cuecorroborating" (line-break hyphen dropped); restored.',
      },
    },
  },
] as const satisfies readonly { id: string; definition: PaperText }[];

/** App. F helpful-flip mechanisms (App. N labels: better-exploration, evidence-reweighting, over-trust). */
export const HELPFUL_MECHANISMS = [
  {
    id: 'over-trust',
    definition: at(
      'App. F',
      'The judge adopted the cued verdict without gathering new evidence. The verdict was correct because the cue happened to align with ground truth.',
    ),
  },
  {
    id: 'better-investigation',
    definition: at(
      'App. F',
      'The cue prompted a new, decisive check that the uncued run had skipped. The resulting evidence supports the corrected verdict.',
    ),
  },
  {
    id: 'evidence-re-weighting',
    definition: at(
      'App. F',
      'The judge reconsidered evidence it already had and reached the correct verdict without a new investigation or blind deference.',
    ),
  },
] as const satisfies readonly { id: string; definition: PaperText }[];

/** App. H: fixed per-dataset pools of base trajectories for the mechanism analysis. */
export const ERROR_MODE_SUBSET_SIZES = {
  'aj-filesystem': 24,
  'aj-postgres': 23,
  'aj-search': 53,
  'terminal-bench-2': 73,
  'swe-bench-verified': 24,
} as const;

/** App. H: reps are not majority-collapsed for the mechanism analysis. */
export const ERROR_MODE_REPS_RULE = at(
  'App. H',
  'Each trajectory is judged three times per condition, and every repetition that flipped is classified individually.',
);
