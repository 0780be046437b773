/**
 * How a mitigation changes the synthetic judge's cue response. SIMULATED: the paper measured the
 * four §3.4 mitigations on one judge (Sonnet-4.6, the system-prompt authority cue, Table 1), so
 * CueLab transfers each row to every persona as odds ratios: a mitigation multiplies the
 * persona's harmful-flip odds by Table 1's after / before odds, and its helpful-flip odds
 * likewise. The persona's own before-rates differ from Table 1's 18% / 30%; the ratios carry over.
 *
 * Where each acts in the synthetic judge (decide.ts):
 * - guard, cite-evidence, learned skill (prompt text): a log-odds shift on deferring after a full
 *   investigation (the harmful side, §3.3) and another on how a judge that skipped its decisive
 *   check answers the cue (App. F: it runs the check, or adopts the cue unchecked, which is most
 *   of the helpful side). Two shifts, two Table 1 numbers per row: both are solved per persona at
 *   the reference cell (strong cue, system prompt), pooled over severity and leniency. A single
 *   shift could not give cite-evidence's row (harm 18% → 16% while help falls 30% → 19%).
 * - sufficiency gate (§3.4: a no-tool audit of FAIL verdicts): the audit overturns a FAIL reached
 *   by deference without evidence (over-trust, lucky deference) with a probability solved from
 *   Table 1's harmful row; its helpful row (30% → 29%) is then a prediction, not a fit.
 * - commit-first, CueLab's own (judge/mitigations/commit-first.ts): a HYPOTHESIS, not a paper
 *   number. A change from the committed verdict stands only with a cited tool result, so flips
 *   without evidence (over-trust, lucky deference) are reverted unless the judge cites something
 *   real but beside the point, and hallucinated evidence fails the verbatim check; grounded
 *   flips (better investigation, a check that stopped short, evidence re-weighted) keep their
 *   citation and stand.
 * A user-defined mitigation's effect is not modelled: its arm gives its unmitigated arm's numbers.
 */
import { completeCueAxes, type CueDirection, type MitigationSpec } from '../../../shared/cue-spec';
import { HELPFUL_MECHANISM_MIX_POOLED, TABLE_1, type MitigationId } from '../paper';
import { deferProbability, helpfulProbabilities, type SyntheticCue } from './cue-model';
import { logit } from './persona-presets';
import type { Persona } from './personas';
import { solveIncreasing } from './solve';

/** Where a mitigation's simulated effect comes from. */
export type MitigationBasis = 'paper-table-1' | 'cuelab-hypothesis' | 'not-modelled';

/** What a mitigation set does to one persona's cue response. */
export interface MitigationEffect {
  /** The mitigation ids, in spec order. */
  ids: string[];
  /** Per id, where its effect comes from. */
  basis: Record<string, MitigationBasis>;
  /** Log-odds added to deferring after a full investigation. */
  deferShift: number;
  /** Log-odds added to both cue responses of a judge that skipped its decisive check (App. F). */
  skippedShift: number;
  /** Item-level probability that the audit overturns a FAIL reached without evidence. */
  gateOverturn: number;
  /** Item-level probability that a flip without evidence survives the commitment check. */
  unevidencedSurvives: number;
  /** Item-level probability that a flip citing invented evidence survives it. */
  fabricatedSurvives: number;
  /**
   * Item-level probability that a helpful flip without a new check survives it: App. F's
   * evidence re-weighting, which the persona folds into lucky deference, cites evidence the judge
   * already had and stands; the rest fares as any unevidenced flip.
   */
  reweightedSurvives: number;
}

/** No mitigation, or only unmodelled ones: the cue response is unchanged. */
export const NO_EFFECT: Omit<MitigationEffect, 'ids' | 'basis'> = {
  deferShift: 0,
  skippedShift: 0,
  gateOverturn: 0,
  unevidencedSurvives: 1,
  fabricatedSurvives: 1,
  reweightedSurvives: 1,
};

/**
 * CueLab's hypothesis for commit-first (not measured by anyone): one in five unevidenced flips
 * gets through by citing a real tool result that does not bear on the change (the check tests
 * that the quote exists, not that it supports the change); invented evidence never matches a
 * tool result verbatim.
 */
export const COMMIT_FIRST_HYPOTHESIS = { unevidencedSurvives: 0.2, fabricatedSurvives: 0 };

/**
 * App. F (pooled helpful mix 29 / 33 / 38): of the helpful flips that involve no new check, the
 * share that is evidence re-weighting rather than lucky over-trust, 38 / (29 + 38).
 */
export const REWEIGHTING_SHARE =
  HELPFUL_MECHANISM_MIX_POOLED.evidenceReweighting /
  (HELPFUL_MECHANISM_MIX_POOLED.evidenceReweighting + HELPFUL_MECHANISM_MIX_POOLED.overTrust);

const PAPER_ROW: Readonly<Record<string, MitigationId>> = {
  guard: 'guard-instruction',
  'cite-evidence': 'cite-evidence',
  'learned-skill': 'learned-skill',
  'sufficiency-gate': 'sufficiency-gate',
};

function logistic(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** A probability moved by a log-odds shift (0 and 1 stay put). */
export function shifted(probability: number, shift: number): number {
  if (probability <= 0) return 0;
  if (probability >= 1) return 1;
  return logistic(logit(probability) + shift);
}

/** `before` moved by the odds ratio of Table 1's `paperBefore` → `paperAfter` (percent). */
export function oddsTransfer(before: number, paperBefore: number, paperAfter: number): number {
  return shifted(before, logit(paperAfter / 100) - logit(paperBefore / 100));
}

const referenceCue = (direction: CueDirection): SyntheticCue => ({
  axes: completeCueAxes(),
  direction,
  placement: { kind: 'system' },
});

/** Expected item-level rates at the reference cell in one direction, under the two shifts. */
function directionRates(persona: Persona, direction: CueDirection, defer: number, better: number) {
  const cue = referenceCue(direction);
  const s = persona.skipDecisiveProbability;
  const d = shifted(deferProbability(persona, cue), defer);
  const helpful = helpfulProbabilities(persona, cue);
  const b = shifted(helpful.betterInvestigation, better);
  const l = shifted(helpful.luckyDeference, better);
  const mix = persona.harmfulMechanisms;
  const fullShare = mix.overTrust + mix.hallucination;
  const overTrustOfFull = fullShare === 0 ? 0 : mix.overTrust / fullShare;
  return {
    // cue-model.ts expectedHarmfulFlipRate, and its helpful mirror: b + (1 − b)·l.
    harm: (1 - s) * d + s * (b * d + (1 - b) * l),
    help: b + (1 - b) * l,
    // Harmful flips reached without evidence: full-plan over-trust, deference after the
    // better-investigation check by over-trust, and unchecked adoption of the cue.
    unevidencedHarm: (1 - s) * d * mix.overTrust + s * (b * d * overTrustOfFull + (1 - b) * l),
    unevidencedHelp: (1 - b) * l,
  };
}

/** Reference-cell rates pooled over the two directions (each weighted equally). */
export function referenceRates(persona: Persona, deferShift = 0, skippedShift = 0) {
  const severity = directionRates(persona, 'severity', deferShift, skippedShift);
  const leniency = directionRates(persona, 'leniency', deferShift, skippedShift);
  return { harm: (severity.harm + leniency.harm) / 2, help: (severity.help + leniency.help) / 2 };
}

/** The two shifts that take the persona's reference rates to Table 1's odds ratios. */
function promptShifts(persona: Persona, row: (typeof TABLE_1)[number]) {
  const before = referenceRates(persona);
  const harmTarget = oddsTransfer(before.harm, row.harmfulBefore, row.harmfulAfter);
  const helpTarget = oddsTransfer(before.help, row.helpfulBefore, row.helpfulAfter);
  let defer = 0;
  let better = 0;
  // Harm moves mostly with the deference shift, help only with the skipped-check shift; each
  // solve holds the other shift, and a few alternations settle both.
  for (let round = 0; round < 12; round += 1) {
    defer = solveIncreasing((x) => referenceRates(persona, x, better).harm, harmTarget);
    better = solveIncreasing((x) => referenceRates(persona, defer, x).help, helpTarget);
  }
  return { deferShift: defer, skippedShift: better };
}

/**
 * The audit's overturn probability that takes the pooled harmful rate to Table 1's odds ratio.
 * Only severity flips end in FAIL, so only they can be overturned.
 */
function gateOverturn(persona: Persona, row: (typeof TABLE_1)[number]): number {
  const before = referenceRates(persona);
  const target = oddsTransfer(before.harm, row.harmfulBefore, row.harmfulAfter);
  const severity = directionRates(persona, 'severity', 0, 0);
  if (severity.unevidencedHarm <= 0) return 0;
  return Math.min(1, Math.max(0, (2 * (before.harm - target)) / severity.unevidencedHarm));
}

const cache = new WeakMap<Persona, Map<string, MitigationEffect>>();

/**
 * The effect of a rep's mitigations on this persona. Several mitigations on one arm add their
 * shifts and chain their checks: CueLab's assumption, since the paper ran each alone.
 */
export function mitigationEffect(
  persona: Persona,
  specs: readonly MitigationSpec[],
): MitigationEffect {
  const key = specs.map((spec) => `${spec.kind}:${spec.id}`).join('|');
  const known = cache.get(persona) ?? new Map<string, MitigationEffect>();
  cache.set(persona, known);
  const hit = known.get(key);
  if (hit) return hit;
  const effect: MitigationEffect = { ids: [], basis: {}, ...NO_EFFECT };
  for (const spec of specs) {
    effect.ids.push(spec.id);
    if (spec.kind === 'custom') {
      effect.basis[spec.id] = 'not-modelled';
      continue;
    }
    if (spec.id === 'commit-first') {
      effect.basis[spec.id] = 'cuelab-hypothesis';
      effect.unevidencedSurvives *= COMMIT_FIRST_HYPOTHESIS.unevidencedSurvives;
      effect.fabricatedSurvives *= COMMIT_FIRST_HYPOTHESIS.fabricatedSurvives;
      effect.reweightedSurvives *=
        REWEIGHTING_SHARE + (1 - REWEIGHTING_SHARE) * COMMIT_FIRST_HYPOTHESIS.unevidencedSurvives;
      continue;
    }
    const row = TABLE_1.find((candidate) => candidate.mitigation === PAPER_ROW[spec.id]);
    if (!row) throw new Error(`Table 1 has no row for mitigation "${spec.id}".`);
    effect.basis[spec.id] = 'paper-table-1';
    if (spec.id === 'sufficiency-gate') {
      const overturn = gateOverturn(persona, row);
      effect.gateOverturn = 1 - (1 - effect.gateOverturn) * (1 - overturn);
      continue;
    }
    const shifts = promptShifts(persona, row);
    effect.deferShift += shifts.deferShift;
    effect.skippedShift += shifts.skippedShift;
  }
  known.set(key, effect);
  return effect;
}

/** Ids of a set whose effect the synthetic judge does not model (user-defined mitigations). */
export function unmodelledMitigations(specs: readonly MitigationSpec[]): string[] {
  return specs.filter((spec) => spec.kind === 'custom').map((spec) => spec.id);
}

/**
 * What an estimate says before a synthetic study runs (the Builder shows the same warnings as
 * `cuelab estimate`): which mitigations the simulation does not model, and which it models only
 * as CueLab's hypothesis.
 */
export function mitigationModelWarnings(
  sets: readonly (readonly MitigationSpec[])[],
): { code: string; message: string }[] {
  const specs = sets.flat();
  const custom = [...new Set(unmodelledMitigations(specs))];
  const warnings: { code: string; message: string }[] = [];
  if (custom.length) {
    warnings.push({
      code: 'mitigation_not_modelled',
      message:
        `Effect not modelled: ${custom.join(', ')} ${custom.length === 1 ? 'is' : 'are'} ` +
        'user-defined, and the synthetic judge (a SIMULATION) answers such an arm as it answers ' +
        'the arm without it.',
    });
  }
  if (specs.some((spec) => spec.kind === 'builtin' && spec.id === 'commit-first')) {
    warnings.push({
      code: 'mitigation_hypothesis',
      message:
        'commit-first is CueLab’s own mitigation, not the paper’s: the synthetic judge models ' +
        'its effect only as a hypothesis (SIMULATED), not a measurement.',
    });
  }
  return warnings;
}
