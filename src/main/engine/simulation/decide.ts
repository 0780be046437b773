/**
 * The synthetic judge's next step, as a pure function of its pre-drawn decisions and the tool
 * results it has received so far. Called afresh on every model turn, it replays the same logic
 * over the conversation, so the judge is a deterministic state machine over what it was shown.
 *
 * Uncued: run the plan (the item's probes, minus the decisive ones when the skip draw says so),
 * conclude from the decisive probes (or, having skipped them, from the surface ones).
 * Cued, when the cue contradicts that conclusion (§3.3, App. F):
 * - full plan run: defer with the persona's probability, by over-trust or hallucination;
 *   under-investigation is decided before the plan, and stops at the first check that agrees
 *   with the cue or after 1–2 probes;
 * - decisive probe skipped: the cue may send it to that probe (better investigation; if the probe
 *   confirms its own finding, deferral is decided as for a full plan), or it may adopt the cue's
 *   verdict without new evidence (lucky deference when the cue matches the gold label).
 */
import {
  conclusionOf,
  hasStopDirective,
  readProbe,
  settledConclusion,
  type Conclusion,
  type Observation,
  type ReadProbe,
} from './probes';
import type { PlanProbe } from './trajectory-plan';

/** The true mechanism of a rep's outcome, stored for validating meta-judges (§3.3, App. F). */
export type Mechanism =
  | 'none'
  | 'over_trust'
  | 'hallucination'
  | 'under_investigation'
  | 'better_investigation'
  | 'lucky_deference';

/** What the draws decided about the cue, before any tool ran. */
export interface CueDecisions {
  /** The verdict the cue asserts: severity → fail, leniency → pass. */
  verdict: Conclusion;
  /** Defers if the cue contradicts a conclusion it reached by its full plan. */
  defer: boolean;
  /** How it defers (Fig. 5 mix). */
  mechanism: 'over_trust' | 'hallucination' | 'under_investigation';
  /** How it defers after it has already investigated fully (the mix without under-investigation). */
  fullMechanism: 'over_trust' | 'hallucination';
  /** Having skipped the decisive probe, the cue sends it there. */
  betterInvestigation: boolean;
  /** Having skipped it and not gone back, it adopts the cue's verdict. */
  luckyDeference: boolean;
  /** Under-investigation stops after at most this many probes (1 or 2). */
  stopAfter: number;
  /** Plan probes it re-runs against the contradicting cue before deferring (Fig. 3; 0 = none). */
  recheck?: number;
}

/** Everything the decision needs besides the tool results. */
export interface DecisionContext {
  /** The probes the judge runs uncued, in order. */
  plan: readonly PlanProbe[];
  /** The item's decisive probes, in order. */
  decisive: readonly PlanProbe[];
  skippedDecisive: boolean;
  cue: CueDecisions | null;
  /** The item's gold label, used only to tell lucky deference from over-trust in the record. */
  gold?: Conclusion;
}

/** How a rep ended. */
export interface Outcome {
  /** The verdict submitted, read as pass / fail. */
  conclusion: Conclusion;
  /** What its own evidence shows; null when it stopped before the evidence settled it. */
  ownFinding: Conclusion | null;
  /** What its uncued self concludes (same skip draw); null when this rep never observed it. */
  uncuedConclusion: Conclusion | null;
  mechanism: Mechanism;
  /** It submitted the cue's verdict rather than its own finding. */
  deferred: boolean;
  /** Every probe read, in the order run. */
  reads: ReadProbe[];
  stoppedByDirective: boolean;
}

/** Why a probe runs: the plan, better investigation (App. F), or a re-check before deferring. */
export type ProbePurpose = 'plan' | 'better_investigation' | 'recheck';

/** The next thing to do. */
export type Step =
  | { kind: 'probe'; probe: PlanProbe; purpose: ProbePurpose; reads: ReadProbe[] }
  | { kind: 'submit'; outcome: Outcome };

/** Decides the next step from the tool results received so far (in call order). */
export function decide(context: DecisionContext, observations: readonly Observation[]): Step {
  const { plan, cue } = context;
  const stoppedByDirective = observations.some((observation) =>
    hasStopDirective(observation.content),
  );
  const planReads = observations
    .slice(0, plan.length)
    .map((observation, index) => readProbe(plan[index] as PlanProbe, observation));
  const submit = (
    fields: Omit<Outcome, 'stoppedByDirective' | 'reads'>,
    reads = planReads,
  ): Step => ({
    kind: 'submit',
    outcome: { ...fields, reads, stoppedByDirective },
  });
  const probe = (next: PlanProbe, purpose: ProbePurpose, reads = planReads): Step => ({
    kind: 'probe',
    probe: next,
    purpose,
    reads,
  });

  if (cue?.defer && cue.mechanism === 'under_investigation' && !context.skippedDecisive) {
    const limit = Math.max(0, Math.min(cue.stopAfter, plan.length - 1));
    const agreeing = planReads.findIndex((read) => read.met === (cue.verdict === 'pass'));
    if (agreeing < 0 && planReads.length < limit && !stoppedByDirective) {
      return probe(plan[planReads.length] as PlanProbe, 'plan');
    }
    const reads = agreeing >= 0 ? planReads.slice(0, agreeing + 1) : planReads;
    const settled = settledConclusion(plan, reads);
    const agrees = settled === cue.verdict;
    return submit(
      {
        conclusion: cue.verdict,
        ownFinding: settled,
        uncuedConclusion: settled,
        mechanism: agrees ? 'none' : 'under_investigation',
        deferred: !agrees,
      },
      reads,
    );
  }

  if (planReads.length < plan.length && !stoppedByDirective) {
    return probe(plan[planReads.length] as PlanProbe, 'plan');
  }
  const own = conclusionOf(planReads);
  const keep = (reads = planReads) =>
    submit(
      {
        conclusion: own,
        ownFinding: own,
        uncuedConclusion: own,
        mechanism: 'none',
        deferred: false,
      },
      reads,
    );
  const flip = (mechanism: Mechanism, reads = planReads) =>
    submit(
      {
        conclusion: own === 'pass' ? 'fail' : 'pass',
        ownFinding: own,
        uncuedConclusion: own,
        mechanism,
        deferred: true,
      },
      reads,
    );
  if (!cue || own === cue.verdict) return keep();
  if (!context.skippedDecisive) {
    if (!cue.defer) return keep();
    // Fig. 3 (frontier judges): it re-runs its own checks against the cue, then defers anyway.
    const rechecked = observations.length - plan.length;
    if (rechecked < (cue.recheck ?? 0) && plan.length > 0 && !stoppedByDirective) {
      return probe(plan[rechecked % plan.length] as PlanProbe, 'recheck');
    }
    return flip(cue.fullMechanism);
  }

  if (cue.betterInvestigation) {
    const extra = observations.slice(plan.length);
    if (extra.length < context.decisive.length && !stoppedByDirective) {
      return probe(context.decisive[extra.length] as PlanProbe, 'better_investigation');
    }
    const extraReads = extra.map((observation, index) =>
      readProbe(context.decisive[index] as PlanProbe, observation),
    );
    if (extraReads.length > 0) {
      const reads = [...planReads, ...extraReads];
      const truth = conclusionOf(extraReads);
      if (truth === cue.verdict) {
        return submit(
          {
            conclusion: truth,
            ownFinding: truth,
            uncuedConclusion: own,
            mechanism: 'better_investigation',
            deferred: false,
          },
          reads,
        );
      }
      return cue.defer ? flip(cue.fullMechanism, reads) : keep(reads);
    }
  }
  if (!cue.luckyDeference) return keep();
  // Deference without new evidence: lucky when the cue is right, over-trust when it is not (and
  // over-trust, the behaviour's name, when the item has no gold label to tell).
  return flip(context.gold === cue.verdict ? 'lucky_deference' : 'over_trust');
}
