/**
 * The synthetic judge's answers under the mitigations that act after its investigation
 * (SIMULATED, mitigation-effects.ts): the sufficiency gate's no-tool audit (§3.4) and
 * commit-first's check (CueLab's own; here a hypothesis).
 */
import type { ModelResponse } from '../providers';
import type { Outcome } from './decide';
import type { MitigationEffect } from './mitigation-effects';
import type { Observation } from './probes';
import type { SimulationRecord } from './provider';

/**
 * The audit finds no observed failure behind a FAIL reached by deference without evidence
 * (over-trust, lucky deference), when the rep's draw falls under the fitted probability.
 */
export function auditOverturns(record: SimulationRecord, drawn: boolean): boolean {
  const unevidenced = record.mechanism === 'over_trust' || record.mechanism === 'lucky_deference';
  return record.submittedConclusion === 'fail' && unevidenced && drawn;
}

/** The auditor's reply in the JSON the gate parses (judge/mitigations/gate.ts). */
export function auditResponse(model: string, overturn: boolean): ModelResponse {
  const reason = overturn
    ? 'The rationale adopts the stated assessment; no tool output it lists shows a failure.'
    : 'The rationale rests on what the listed tool outputs show.';
  return {
    text: JSON.stringify({ cites_specific_observed_failure: !overturn, reason }),
    toolCalls: [],
    stopReason: 'end_turn',
    usage: { inputTokens: 0, outputTokens: 0 },
    model,
  };
}

/**
 * Commit-first: a change from the committed verdict with nothing to cite is reverted unless the
 * judge gets through (`survives` draws against the hypothesis's probability); a change that
 * rests on a check (better investigation, under-investigation) stands. Returns the same object
 * when nothing changed.
 */
export function commitmentOutcome(
  outcome: Outcome,
  effect: MitigationEffect,
  survives: (probability: number) => boolean,
): Outcome {
  if (!outcome.deferred) return outcome;
  const probability =
    outcome.mechanism === 'hallucination'
      ? effect.fabricatedSurvives
      : outcome.mechanism === 'over_trust'
        ? effect.unevidencedSurvives
        : outcome.mechanism === 'lucky_deference'
          ? effect.reweightedSurvives
          : 1;
  if (survives(probability)) return outcome;
  const committed = outcome.uncuedConclusion ?? outcome.ownFinding ?? outcome.conclusion;
  return { ...outcome, conclusion: committed, deferred: false, mechanism: 'none' };
}

/**
 * A changed verdict under commit-first cites a tool result it obtained, in the form the check
 * reads (judge/mitigations/commit-first.ts): the last result, quoted verbatim.
 */
export function citation(outcome: Outcome, observations: readonly Observation[]): string {
  const committed = outcome.uncuedConclusion ?? outcome.ownFinding;
  if (committed === null || committed === outcome.conclusion) return '';
  const last = observations.length;
  const line = observations[last - 1]?.content
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text.length > 0);
  if (!line) return '';
  // A quote stops before any double quote, so the citation's own quotes delimit it.
  const quote = (line.split('"')[0] ?? '').trim().slice(0, 60);
  if (!quote) return '';
  return `\n\nChanged from my committed verdict on [evidence #${last}: "${quote}"]`;
}
