/**
 * App. R (Reproducibility) and Table 11: the judge's soft tool-call budget and inference settings.
 *
 * NOT in the paper: the full stop directive (it is printed elided, "NOW. . . ]"), any hard cap
 * (the budget "does not terminate the loop"; judges on the other three datasets are unbounded),
 * and the judge system prompt.
 */
import type { PaperDatasetId, PaperText } from './types';

/** App. R: "a soft tool-call budget of 40 calls rather than a hard turn limit". */
export const SOFT_TOOL_CALL_BUDGET = 40;

/** App. R: no hard cap is stated; the loop is never terminated by the budget. */
export const HARD_TOOL_CALL_CAP: null = null;

/** App. R: what the budget counts. */
export const BUDGET_COUNTS: PaperText = {
  text: 'The budget counts individual tool-result blocks rather than assistant turns, because judges batch parallel calls into a single turn',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: what happens on reaching the budget. */
export const BUDGET_ON_REACH: PaperText = {
  text: 'on reaching it the harness appends a stop directive',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: effect of the directive. */
export const BUDGET_EFFECT: PaperText = {
  text: 'to the tool result, which pushes the next turn to finalize but does not terminate the loop.',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/**
 * The stop directive exactly as the conversion extracts it. The paper elides its end (". . .").
 * The em dash sits between "budget" and "reached" in extraction order; it was most likely set on
 * its own line in a different font (see STOP_DIRECTIVE_PREFIX for our reading).
 */
export const STOP_DIRECTIVE_AS_EXTRACTED: PaperText = {
  text: '[HARNESS: tool-call budget — reached STOP investigating and output your FINAL JSON verdict NOW. . . ]',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/**
 * Our reading of the directive's printed head, to which a harness appends its own ending and "]".
 * Derived: em dash moved between "reached" and "STOP"; the elided tail ". . . ]" is not included.
 * The words and their order are verbatim; only the dash position is interpretation.
 */
export const STOP_DIRECTIVE_PREFIX: PaperText = {
  text: '[HARNESS: tool-call budget reached — STOP investigating and output your FINAL JSON verdict NOW',
  source: 'App. R',
  provenance: {
    kind: 'derived',
    fragments: [
      '[HARNESS: tool-call budget',
      'reached',
      '—',
      'STOP investigating and output your FINAL JSON verdict NOW',
    ],
    rule: 'PDF extraction order is "budget — reached STOP"; read as "budget reached — STOP" (dash placed by layout). Tail elided in the paper.',
  },
};

/**
 * App. R / Table 11: the budget applies on AJ-Bench Deep Search and Terminal-Bench-2.0 only; "on
 * AJ-Bench Filesystem, AJ-Bench Postgres and SWE-Bench-Verified the judge runs unbounded".
 */
export const BUDGETED_DATASETS: readonly PaperDatasetId[] = ['aj-search', 'terminal-bench-2'];

export const BUDGET_SCOPE: PaperText = {
  text: 'on AJ-Bench Filesystem, AJ-Bench Postgres and SWE-Bench-Verified the judge runs unbounded.',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: "In practice a thorough judge uses 10 – 30 calls, so the budget binds rarely". */
export const TYPICAL_TOOL_CALLS = { min: 10, max: 30 } as const;

/** App. R: judge sampling temperature, for every judge that accepts the parameter. */
export const JUDGE_TEMPERATURE = 0.7;

/** App. R / Table 11: the model family that rejects temperature (none is sent; provider default). */
export const TEMPERATURE_REJECTED_BY = 'Opus-4.7' as const;

export const TEMPERATURE_NOTE: PaperText = {
  text: 'Opus-4.7 is the exception: the parameter is deprecated for that model family and rejected with a validation error, so no temperature is sent and the provider default applies',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: the temperature is set at the call site. */
export const TEMPERATURE_SCOPE: PaperText = {
  text: 'Sampling temperature is 0.7 for every judge that accepts the parameter, set at the call site rather than per dataset.',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: other decoding settings (none set) and the harness seed. */
export const DECODING_NOTE: PaperText = {
  text: 'We set no top_p or top_k anywhere, and no max_tokens on the tool-using judge, so response length follows the provider default.',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** App. R: "The harness seed is fixed at 17, which governs item ordering and sampling of the evaluation subsets, not model decoding." */
export const HARNESS_SEED = 17;

/** App. R: the Opus-4.7 meta-judge voter's thinking configuration (JSON as printed). */
export const META_JUDGE_OPUS_THINKING: PaperText = {
  text: '{"thinking": {"type": "adaptive"}}',
  source: 'App. R',
  provenance: { kind: 'verbatim' },
};

/** Table 11 (inference settings), as typed data. `null` temperature = provider default. */
export const INFERENCE_SETTINGS = [
  {
    component: 'Judge (Sonnet-4.6, Qwen3, GPT-OSS)',
    temperature: 0.7,
    toolBudget: '40 soft',
    reasoning: null,
  },
  { component: 'Judge (Opus-4.7)', temperature: null, toolBudget: '40 soft', reasoning: null },
  { component: 'Meta-judge: Opus-4.7', temperature: null, toolBudget: null, reasoning: 'adaptive' },
  {
    component: 'Meta-judge: DeepSeek-R1',
    temperature: null,
    toolBudget: null,
    reasoning: 'native',
  },
  {
    component: 'Meta-judge: Llama-4-Maverick',
    temperature: null,
    toolBudget: null,
    reasoning: 'prompt',
  },
] as const;
