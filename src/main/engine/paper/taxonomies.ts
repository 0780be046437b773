/**
 * App. J error-category taxonomies used by the §3.2 error-attribution readout (the judge marks
 * each category present or absent; a trajectory can exhibit several).
 *
 * NOT in the paper: any category definition. SWE-Bench-Verified's nine are "Adopted directly
 * from Liu et al. (2025)" and reused "verbatim", but the paper prints only codes and names; the
 * AJ-Bench categories had "an explanation, and observable signals" that are not printed either.
 * `definition` is therefore null everywhere. The per-category classifier prompt ("present/absent
 * per category, JSON output") is not printed.
 *
 * FS4's phase is printed "DomainSpecific" (converter dropped a line-break hyphen); PG3 prints
 * "Domain-Specific", which we use for both.
 */
import type { PaperDatasetId, PaperText } from './types';

export type TaxonomyPhase =
  'Localization' | 'Tool Use' | 'Domain-Specific' | 'Repair' | 'Iterative Verification';

export interface ErrorCategory {
  readonly id: string;
  readonly name: string;
  readonly phase: TaxonomyPhase;
  /** Not given in the paper (see file comment). */
  readonly definition: null;
}

function cat(id: string, name: string, phase: TaxonomyPhase): ErrorCategory {
  return { id, name, phase, definition: null };
}

/** App. J: SWE-Bench-Verified (9 categories, three phases; Liu et al. 2025). */
export const SWE_BENCH_VERIFIED_TAXONOMY: readonly ErrorCategory[] = [
  cat('A1', 'Issue Misleading', 'Localization'),
  cat('A2', 'Superficial Information Matching', 'Localization'),
  cat('B1', 'Fix Strategy Defects', 'Repair'),
  cat('B2', 'Implementation Details Defects', 'Repair'),
  cat('B3', 'Incomplete Repair', 'Repair'),
  cat('B4', 'Issue Interference', 'Repair'),
  cat('C1', 'Reproduction or Verification Failure', 'Iterative Verification'),
  cat('C2', 'Iteration Anomalies', 'Iterative Verification'),
  cat('C3', 'Context Amnesia', 'Iterative Verification'),
];

/** App. J: AJ-Bench Filesystem (7 categories). */
export const AJ_FILESYSTEM_TAXONOMY: readonly ErrorCategory[] = [
  cat('FS1', 'Path/Scope Misidentification', 'Localization'),
  cat('FS2', 'Allowed-Directory Boundary Violation', 'Tool Use'),
  cat('FS3', 'Tool/Argument Misuse', 'Tool Use'),
  cat('FS4', 'Structure-vs-Content Conflation', 'Domain-Specific'),
  cat('FS5', 'Incomplete Traversal', 'Repair'),
  cat('FS6', 'Stale-View Context Amnesia', 'Iterative Verification'),
  cat('FS7', 'Premature Stop Unverified', 'Iterative Verification'),
];

/** App. J: AJ-Bench Postgres (7 categories). */
export const AJ_POSTGRES_TAXONOMY: readonly ErrorCategory[] = [
  cat('PG1', 'Schema Localization Failure', 'Localization'),
  cat('PG2', 'Schema Linking Error', 'Localization'),
  cat('PG3', 'Value Comprehension Failure', 'Domain-Specific'),
  cat('PG4', 'Query Authoring Defects', 'Repair'),
  cat('PG5', 'Decomposition Failure', 'Repair'),
  cat('PG6', 'Result Misinterpretation', 'Iterative Verification'),
  cat('PG7', 'Iteration Anomalies on Errors', 'Iterative Verification'),
];

/** The three taxonomies by dataset (the error-attribution readout is not run on the other two). */
export const TAXONOMIES: Readonly<Partial<Record<PaperDatasetId, readonly ErrorCategory[]>>> = {
  'swe-bench-verified': SWE_BENCH_VERIFIED_TAXONOMY,
  'aj-filesystem': AJ_FILESYSTEM_TAXONOMY,
  'aj-postgres': AJ_POSTGRES_TAXONOMY,
};

/** §3.2: taxonomy sizes ("7 for the AJ-Bench tasks, 9 for SWE-Bench-Verified"). */
export const TAXONOMY_SIZES = {
  'swe-bench-verified': 9,
  'aj-filesystem': 7,
  'aj-postgres': 7,
} as const;

/** App. J: the SWE-Bench classifier prompt is the authors' own, written from Liu et al.'s definitions. */
export const SWE_CLASSIFIER_NOTE: PaperText = {
  text: 'We reuse their categories verbatim; because their study did not publish a machine classifier prompt, we wrote a present/absent classifier prompt from their category definitions.',
  source: 'App. J',
  provenance: { kind: 'verbatim' },
};

/**
 * App. J: the prompt used to induce the AJ-Bench taxonomies. The paper says it "was, in
 * substance:" — i.e. NOT claimed verbatim. `{filesystem | postgres}` is the paper's placeholder.
 * "SWE-Bench" is printed "SWEBench" (converter dropped a line-break hyphen); restored here.
 */
export const AJ_TAXONOMY_GENERATION_PROMPT_IN_SUBSTANCE: PaperText = {
  text: 'You have read-only access to the full set of failing agent trajectories for the {filesystem | postgres} tasks in this benchmark. Investigate the whole corpus and induce a compact taxonomy of the distinct ways these agents fail. Group failures into a small number of mutually-exclusive categories organized by the phase in which they occur (localization, tool use, domain-specific reasoning, repair, iterative verification), mirroring the SWE-Bench failure taxonomy of Liu et al. For each category give: a short code, a name, the phase, a one-paragraph explanation, and the concrete observable signals a grader would key on. Aim for roughly seven categories that jointly cover the corpus without overlap.',
  source: 'App. J',
  provenance: {
    kind: 'derived',
    fragments: [
      'You have read-only access to the full set of failing agent trajectories for the {filesystem | postgres} tasks in this benchmark. Investigate the whole corpus and induce a compact taxonomy of the distinct ways these agents fail. Group failures into a small number of mutually-exclusive categories organized by the phase in which they occur (localization, tool use, domain-specific reasoning, repair, iterative verification), mirroring the SWE',
      'Bench failure taxonomy of Liu et al. For each category give: a short code, a name, the phase, a one-paragraph explanation, and the concrete observable signals a grader would key on. Aim for roughly seven categories that jointly cover the corpus without overlap.',
    ],
    rule: 'Conversion printed "SWEBench" (line-break hyphen dropped); restored to "SWE-Bench".',
  },
};
