/**
 * What one judged rep produced, as the judge hands it to the runner: the runner stores it
 * together with its job's completion, so the judge needs no store and a crash leaves both or
 * neither.
 */
import type { CueSpan, JudgeTranscript } from './transcript';
import type { Verdict } from './verdict';

/** What identifies a rep besides its transcript. */
export interface RepIdentity {
  studyId?: string;
  suiteId: string;
  itemId: string;
  provider: string;
  model: string;
  simulated: boolean;
  /** Cue, direction, placement, mitigations, dimension, seed, budget: as run. */
  condition: Record<string, unknown>;
}

/** One judged rep, ready to store. */
export interface RepRecord extends RepIdentity {
  transcript: JudgeTranscript;
  cueSpans: CueSpan[];
  /** The verdict after any gate. */
  finalVerdict: Verdict | null;
  /** The gate's account of its pass, or null when no gate ran. */
  gate: unknown;
  /** The synthetic judge's account of the rep (persona, true mechanism); absent for real models. */
  simulation?: unknown;
}
