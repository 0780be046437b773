/**
 * Analysis input and shared output shapes. Analysis is pure (CONVENTIONS.md, "Pure functions for
 * numbers"): every function takes rows and returns rows, with no database or clock inside, so
 * imported and native studies analyse identically and the numbers can be checked against the
 * paper's tables ("Grounded but Not Immune", arXiv 2611.05662v1).
 */

/** A binary verdict (§3.1: "a single binary verdict"; Table 7: binary dimensions). */
export type BinaryVerdict = 'pass' | 'fail';

/** App. D: severity asserts failure, leniency asserts success. */
export type CueDirection = 'severity' | 'leniency';

/**
 * One judge rep, the input row of every analysis. The columns are those of the results-import
 * format (`item_id, dataset, judge, condition, cue_direction, rep, verdict, score, gold,
 * dimension, turns`) plus the optional error-attribution and arm-description columns.
 */
export interface JudgeRepRow {
  readonly itemId: string;
  readonly dataset: string;
  readonly judge: string;
  /** The arm; `'uncued'` (UNCUED_CONDITION) is the control (§3.1). */
  readonly condition: string;
  /** Which way the cue points; null on the control arm or when unknown (imported data). */
  readonly cueDirection: CueDirection | null;
  /** Rep index within the arm (§3.1: three per arm). */
  readonly rep: number;
  /** The rep's pass/fail verdict; null when the rep produced no valid verdict. */
  readonly verdict: BinaryVerdict | null;
  /** Graded score (App. G: 1–100); null for binary dimensions or an invalid rep. */
  readonly score: number | null;
  /** Verifier ground truth for the item (task success only, App. G); null when unknown. */
  readonly gold: BinaryVerdict | null;
  /** App. G dimension id, e.g. `task_success`. */
  readonly dimension: string;
  /** Turns the judge took (the effort axis of Fig. 3 / App. L); null when unknown. */
  readonly turns: number | null;
  /** True when the rep came from the synthetic judge rather than a real model. */
  readonly simulated: boolean;
  /** Error attribution (§3.2): categories the judge marked present. */
  readonly categoriesPresent?: number | null;
  /** Error attribution (§3.2, App. J): size of the dataset's taxonomy (7 or 9 in the paper). */
  readonly taxonomySize?: number | null;
  /** App. K placement of the cue, for display and mitigation pairing. */
  readonly placement?: string | null;
  /** §3.4 mitigation applied on this arm; null when none. */
  readonly mitigation?: string | null;
  /** Which cue wording the arm used, for display and mitigation pairing. */
  readonly cueLabel?: string | null;
  /**
   * How the rep ended (native studies): a `budget_exhausted` rep has no verdict and is counted
   * on its own in every table (App. R has no hard stop; CueLab's safety settings can end a rep).
   */
  readonly outcome?: RepOutcomeName | null;
}

/** How a rep ended (contract/transcript.ts `RepOutcome`, plus a provider `error`). */
export type RepOutcomeName = 'verdict' | 'invalid_verdict' | 'budget_exhausted' | 'error';

/** The control arm's condition name (§3.1 "Uncued arm (control)"). */
export const UNCUED_CONDITION = 'uncued';

/** Options shared by the analyses that pair a cued arm with the control. */
export interface ControlOptions {
  /** Condition name of the control arm; default UNCUED_CONDITION. */
  readonly controlCondition?: string;
}

/** A closed interval, as proportions (rates) or percentages (headroom), per the field's name. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** What a summary row pools over: one judge on one dataset, one judge, or everything. */
export type Scope = 'judge-dataset' | 'judge' | 'all';
