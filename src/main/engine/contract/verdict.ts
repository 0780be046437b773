/**
 * What the judge is asked to decide and the shape of its answer, as data. The judge builds
 * schemas and prompts from these; the store and the synthetic judge read them, so they live
 * here rather than in judge/.
 */

/** One category of an error taxonomy. */
export interface TaxonomyCategory {
  id: string;
  name: string;
  definition: string;
}

/** An error taxonomy (App. J ships three; suites may define their own). */
export interface Taxonomy {
  id: string;
  name: string;
  categories: TaxonomyCategory[];
}

/** The judge's task. */
export type Readout =
  | { kind: 'binary'; dimension: string; instructions: string }
  | { kind: 'graded'; dimension: string; instructions: string }
  | { kind: 'error_attribution'; dimension: string; instructions: string; taxonomy: Taxonomy };

/** A parsed verdict. */
export type Verdict =
  | { kind: 'binary'; outcome: 'pass' | 'fail'; confidence: number; rationale: string }
  | { kind: 'graded'; score: number; rationale: string }
  | { kind: 'error_attribution'; present: string[]; absent: string[]; rationale: string };
