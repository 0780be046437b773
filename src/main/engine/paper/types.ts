/**
 * Shared types for the paper-derived constants ("Grounded but Not Immune: Confirmation Bias in
 * Agent-as-a-judge", arXiv 2611.05662v1).
 */

/** Where a constant comes from: a section (§), appendix (App.), table or figure of the paper. */
export type PaperCitation =
  `§${number}` | `§${number}.${number}` | `App. ${string}` | `Table ${number}` | `Fig. ${number}`;

/**
 * How a `text` constant relates to the normalised paper text (see normalize.ts).
 * - `verbatim`: occurs contiguously.
 * - `split`: verbatim, but the PDF layout split it (table numbers interleaved, or a word broken
 *   without a hyphen); every fragment occurs, and the fragments concatenated equal `text` once all
 *   whitespace is removed.
 * - `derived`: not printed as one piece; assembled from verbatim fragments by the stated `rule`
 *   (always a rule the paper itself states, or a repair of a conversion artefact).
 */
export type TextProvenance =
  | { readonly kind: 'verbatim' }
  | { readonly kind: 'split'; readonly fragments: readonly string[] }
  | { readonly kind: 'derived'; readonly fragments: readonly string[]; readonly rule: string };

/** A piece of paper text together with its provenance. */
export interface PaperText {
  readonly text: string;
  readonly provenance: TextProvenance;
  readonly source: PaperCitation;
}

/** The four judges, spelled as the paper's tables print them. */
export type PaperJudge = 'Opus-4.7' | 'Sonnet-4.6' | 'Qwen3-235B' | 'GPT-OSS-120B';

/** The five datasets (§3.1). */
export type PaperDatasetId =
  'aj-filesystem' | 'aj-postgres' | 'aj-search' | 'terminal-bench-2' | 'swe-bench-verified';

/** Dataset names: `full` as in §3.1 / Table 7, `short` as in Table 6. */
export const PAPER_DATASETS: Readonly<
  Record<PaperDatasetId, { readonly full: string; readonly short: string }>
> = {
  'aj-filesystem': { full: 'AJ-Bench Filesystem', short: 'AJ-Filesystem' },
  'aj-postgres': { full: 'AJ-Bench Postgres', short: 'AJ-Postgres' },
  'aj-search': { full: 'AJ-Bench Deep Search', short: 'AJ-Search' },
  'terminal-bench-2': { full: 'Terminal-Bench-2.0', short: 'Terminal-Bench-2.0' },
  'swe-bench-verified': { full: 'SWE-Bench-Verified', short: 'SWE-Bench-Verified' },
};

export const PAPER_JUDGES: readonly PaperJudge[] = [
  'Opus-4.7',
  'Sonnet-4.6',
  'Qwen3-235B',
  'GPT-OSS-120B',
];

/** Shorthand for a contiguous verbatim text. */
export function verbatim(text: string, source: PaperCitation): PaperText {
  return { text, source, provenance: { kind: 'verbatim' } };
}
