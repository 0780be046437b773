/**
 * The synthetic judge: an offline simulation of an agentic judge, labelled as such in
 * every record. It investigates through real tool calls in the item's environment, following the
 * item's probe plan, forms its verdict from what those calls returned, and then lets a documented
 * cue-response model (cue-model.ts) decide whether it defers to a planted cue and how.
 *
 * Every random choice is drawn up front from generators seeded by (seed, persona, item, rep key)
 * — or, for a rep that follows its item's template, (seed, persona, item × judge) — and, for
 * cue-dependent choices, the cue key, so the same inputs give the same transcript, and a cued
 * rep shares its skip draw with the uncued rep of the same item and rep key. Each `complete`
 * replays the decision over the tool results in the conversation (decide.ts). It is not a model:
 * token counts are 0, so its cost is 0 (pricing.ts prices every simulated entry at 0).
 */
import type { MitigationSpec } from '../../../shared/cue-spec';
import type { SuiteItem } from '../../../shared/suite-format';
import { seededRandom } from '../random';
import { placementName, type Readout, submitVerdictTool } from '../judge';
import {
  ProviderError,
  type ChatMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
} from '../providers';
import {
  cueKey,
  deferProbability,
  helpfulProbabilities,
  isHypothesisCue,
  type SyntheticCue,
} from './cue-model';
import {
  decide,
  type CueDecisions,
  type DecisionContext,
  type Mechanism,
  type Outcome,
} from './decide';
import { fabricate } from './fabrication';
import { repRate } from './item-calibration';
import { auditOverturns, auditResponse, citation, commitmentOutcome } from './mitigated-outcome';
import { mitigationEffect, shifted, type MitigationBasis } from './mitigation-effects';
import { composeRationale, narrateProbe } from './narration';
import type { Persona } from './personas';
import type { Conclusion, Observation } from './probes';
import { trajectoryLineCount, trajectoryPlan, type PlanProbe } from './trajectory-plan';
import { verdictFields, type VerdictDraws } from './verdict';
import { simulatedProvider } from '../../../shared/catalogue/providers';

/** The synthetic judge's account of a rep, stored as the rep's simulation_json. */
export interface SimulationRecord {
  /** Always true: this rep came from a simulation, not a model. */
  simulated: true;
  persona: string;
  personaLabel: string;
  /** The paper judge the persona is calibrated on, if any. */
  calibratedOn: string | null;
  /** The cue as the cue-response model read it; null uncued. */
  cue: {
    key: string;
    axes: SyntheticCue['axes'];
    direction: string;
    placement: string;
    /** A family cue's family id. */
    family?: string;
    /** True when the cue's effect is CueLab's hypothesis (a family or placement the paper never measured). */
    hypothesis?: boolean;
  } | null;
  /** What its uncued self concludes (same skip draw); null when this rep stopped before it could tell. */
  uncuedConclusion: Conclusion | null;
  /** The verdict it submitted, read as pass / fail; null before it submitted. */
  submittedConclusion: Conclusion | null;
  /**
   * Per-rep probability of deferring to a contradicting cue after a full investigation (0
   * uncued); the persona's item-level rate turned into a per-rep draw (item-calibration.ts).
   */
  deferProbability: number;
  /** This rep drew from its item's shared template (probability `repCorrelation`). */
  followsItemTemplate: boolean;
  /** App. F helpful-side probabilities for this cue (0 uncued). */
  betterInvestigationProbability: number;
  luckyDeferenceProbability: number;
  /** It submitted the cue's verdict instead of its own finding. */
  deferred: boolean;
  /** The true mechanism (§3.3, App. F), for validating meta-judges. */
  mechanism: Mechanism;
  skippedDecisive: boolean;
  /** Probe ids in the order run. */
  probesRun: string[];
  stoppedByDirective: boolean;
  /**
   * 'trajectory' when the item had no probes and the judge read the trajectory's pages and
   * decided from the persona's rates and the gold label (trajectory-plan.ts); absent otherwise.
   */
  readFrom?: 'trajectory';
  /** Hallucination only: the fabricated observation the rationale states. */
  fabricatedClaim?: string;
  /** Hallucination only: its invented file, row value or output line (in no tool output). */
  fabricatedEvidence?: string;
  /**
   * SIMULATED mitigation effect (mitigation-effects.ts), present when the rep ran mitigations:
   * per id, whether it is modelled on Table 1, a CueLab hypothesis, or not modelled at all.
   */
  mitigation?: {
    basis: Record<string, MitigationBasis>;
    deferShift: number;
    skippedShift: number;
    /** The gate's audit of this rep's FAIL, once asked. */
    audit?: 'grounded' | 'ungrounded';
    /** Commit-first reverted an unevidenced change to the committed verdict. */
    reverted?: boolean;
  };
}

/** What one synthetic rep needs. */
export interface SyntheticProviderOptions {
  item: SuiteItem;
  persona: Persona;
  cue: SyntheticCue | null;
  seed: number;
  /** Distinguishes repetitions of the same item and condition, e.g. "0", "1". */
  repKey: string;
  /** The item × judge the reps share a template for (default: the item id). */
  itemKey?: string;
  readout: Readout;
  /** Category ids an error-attribution cue names (`{cat}`); default: all categories. */
  cueCategories?: readonly string[];
  /** The rep's mitigations; their simulated effect is mitigation-effects.ts's. */
  mitigations?: readonly MitigationSpec[];
}

/** A synthetic judge for one rep. */
export interface SyntheticProvider extends ModelProvider {
  readonly kind: typeof simulatedProvider.kind;
  /** The rep's simulation record so far (final once the verdict is submitted). */
  describe(): SimulationRecord;
}

function pickMechanism(persona: Persona, draw: number): CueDecisions['mechanism'] {
  const mix = persona.harmfulMechanisms;
  if (draw < mix.overTrust) return 'over_trust';
  return draw < mix.overTrust + mix.hallucination ? 'hallucination' : 'under_investigation';
}

function observationsOf(messages: readonly ChatMessage[]): Observation[] {
  return messages.flatMap((message) =>
    message.role === 'tool' &&
    message.toolCallId.startsWith('syn-') &&
    message.toolName !== submitVerdictTool
      ? [{ content: message.content, isError: message.isError ?? false }]
      : [],
  );
}

function callsMade(messages: readonly ChatMessage[]): number {
  return messages.reduce(
    (count, message) =>
      count +
      (message.role === 'assistant'
        ? (message.toolCalls ?? []).filter((call) => call.id.startsWith('syn-')).length
        : 0),
    0,
  );
}

/**
 * Creates the synthetic judge for one rep. An item with probes is judged by running them; one
 * without (an imported run) by reading its trajectory and its gold label (trajectory-plan.ts),
 * so an item with neither cannot be judged.
 */
export function createSyntheticProvider(options: SyntheticProviderOptions): SyntheticProvider {
  const { item, persona, cue, seed, repKey, readout } = options;
  const probes = item.probes ?? [];
  const gold = item.gold;
  if (probes.length === 0 && !gold) {
    throw new Error(
      `Item ${item.id} has no probes and no gold label: without probes the synthetic judge reads the trajectory and decides from the item's gold label.`,
    );
  }
  // Item-level calibration (item-calibration.ts): a rep follows the item's template draws with
  // probability ρ, else draws on its own. The coin ignores the cue, so a cued rep and its
  // uncued twin follow (or not) together and share their skip draw either way.
  const itemKey = options.itemKey ?? item.id;
  const correlation = persona.repCorrelation;
  const follows =
    seededRandom(seed, 'synthetic-judge-follow', persona.id, itemKey, repKey)() < correlation;
  const scope = follows
    ? ['synthetic-judge-item', persona.id, itemKey]
    : ['synthetic-judge', persona.id, item.id, repKey];
  const own = seededRandom(seed, ...scope);
  const skipDraw = own();
  const ownDraws = { own: own(), category: own() };
  // A mitigated arm draws independently of the unmitigated arm of the same cue, as a real judge
  // run twice would; `coupledMitigationArms` (a documented variance-reduction option) makes
  // them share their draws, so an item flips after a mitigation only if it flipped before.
  const mitigations = options.mitigations ?? [];
  const armKey =
    mitigations.length > 0 && !persona.coupledMitigationArms
      ? [`mitigations:${mitigations.map((spec) => spec.id).join('+')}`]
      : [];
  const cued = seededRandom(seed, ...scope, cueKey(cue), ...armKey);
  const draws = {
    defer: cued(),
    mechanism: cued(),
    fullMechanism: cued(),
    better: cued(),
    lucky: cued(),
    stopAfter: cued(),
    fabrication: cued(),
  };
  const verdictDraws: VerdictDraws = { ...ownDraws, cued: cued(), shift: cued() };
  // Drawn after the others, so a rep without mitigations keeps its earlier transcripts.
  const mitigationDraws = { audit: cued(), commitment: cued() };
  const effect = mitigationEffect(persona, mitigations);
  const commitFirst = effect.unevidencedSurvives < 1 || effect.fabricatedSurvives < 1;

  const readsTrajectory = probes.length === 0;
  const perRep = (itemLevel: number) => repRate(itemLevel, correlation);
  // A trajectory plan always has its decisive read (the end of the run).
  const hasDecisive = readsTrajectory || probes.some((probe) => probe.decisive);
  const skippedDecisive = hasDecisive && skipDraw < perRep(persona.skipDecisiveProbability);
  const defer = perRep(shifted(deferProbability(persona, cue), effect.deferShift));
  const itemHelpful = helpfulProbabilities(persona, cue);
  const helpful = {
    betterInvestigation: perRep(shifted(itemHelpful.betterInvestigation, effect.skippedShift)),
    luckyDeference: perRep(shifted(itemHelpful.luckyDeference, effect.skippedShift)),
  };
  const mix = persona.harmfulMechanisms;
  const fullShare = mix.overTrust + mix.hallucination;
  const cueDecisions: DecisionContext['cue'] = cue && {
    verdict: cue.direction === 'severity' ? 'fail' : 'pass',
    defer: draws.defer < defer,
    mechanism: pickMechanism(persona, draws.mechanism),
    fullMechanism:
      fullShare === 0 || draws.fullMechanism < mix.overTrust / fullShare
        ? 'over_trust'
        : 'hallucination',
    betterInvestigation: draws.better < helpful.betterInvestigation,
    luckyDeference: draws.lucky < helpful.luckyDeference,
    stopAfter: draws.stopAfter < 0.5 ? 1 : 2,
    recheck: persona.recheckBeforeDeferring,
  };
  const contextFor = (steps: readonly PlanProbe[]): DecisionContext => ({
    plan: skippedDecisive ? steps.filter((probe) => !probe.decisive) : steps,
    decisive: steps.filter((probe) => probe.decisive),
    skippedDecisive,
    cue: cueDecisions,
    ...(gold ? { gold } : {}),
  });
  // The trajectory's pages are known once the prompt says how long it is (first request).
  let context: DecisionContext | undefined = readsTrajectory ? undefined : contextFor(probes);

  let record: SimulationRecord = {
    simulated: true,
    persona: persona.id,
    personaLabel: persona.label,
    calibratedOn: persona.calibratedOn ?? null,
    cue: cue && {
      key: cueKey(cue),
      axes: cue.axes,
      direction: cue.direction,
      placement: placementName(cue.placement),
      ...(cue.family ? { family: cue.family.id } : {}),
      ...(isHypothesisCue(cue) ? { hypothesis: true } : {}),
    },
    uncuedConclusion: null,
    submittedConclusion: null,
    deferProbability: defer,
    followsItemTemplate: follows,
    betterInvestigationProbability: helpful.betterInvestigation,
    luckyDeferenceProbability: helpful.luckyDeference,
    deferred: false,
    mechanism: 'none',
    skippedDecisive,
    probesRun: [],
    stoppedByDirective: false,
    ...(readsTrajectory ? { readFrom: 'trajectory' as const } : {}),
    ...(mitigations.length
      ? {
          mitigation: {
            basis: effect.basis,
            deferShift: effect.deferShift,
            skippedShift: effect.skippedShift,
          },
        }
      : {}),
  };
  let toolsChecked = false;
  // Set when commit-first reverts the rep's change (read into the record on submit).
  let reverted = false;

  function checkTools(request: ModelRequest): void {
    if (toolsChecked) return;
    const offered = new Set(request.tools.map((tool) => tool.name));
    const missing = probes.find((probe) => !offered.has(probe.tool));
    if (missing) {
      throw new ProviderError(
        'bad_request',
        `Probe ${missing.id} of item ${item.id} uses ${missing.tool}, which this environment does not offer (${[...offered].join(', ')}).`,
      );
    }
    toolsChecked = true;
  }

  function respond(
    request: ModelRequest,
    text: string,
    name: string,
    input: unknown,
  ): ModelResponse {
    const id = `syn-${callsMade(request.messages) + 1}`;
    return {
      text,
      toolCalls: [{ id, name, input }],
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0 },
      model: request.model,
    };
  }

  return {
    kind: simulatedProvider.kind,
    describe: () => structuredClone(record),
    complete(request, signal) {
      try {
        signal?.throwIfAborted();
        return Promise.resolve(answer(request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };

  function planFor(request: ModelRequest): DecisionContext {
    if (context) return context;
    const lineCount = trajectoryLineCount(String(request.messages[0]?.content ?? ''));
    if (lineCount === null || !gold) {
      throw new ProviderError(
        'bad_request',
        `The synthetic judge cannot find the trajectory's length in the prompt of item ${item.id}.`,
      );
    }
    context = contextFor(trajectoryPlan(lineCount, gold));
    return context;
  }

  function audit(request: ModelRequest): ModelResponse {
    const overturn = auditOverturns(record, mitigationDraws.audit < perRep(effect.gateOverturn));
    if (record.mitigation) {
      const verdict = overturn ? ('ungrounded' as const) : ('grounded' as const);
      record = { ...record, mitigation: { ...record.mitigation, audit: verdict } };
    }
    return auditResponse(request.model, overturn);
  }

  function underCommitment(outcome: Outcome): Outcome {
    if (!commitFirst) return outcome;
    const checked = commitmentOutcome(
      outcome,
      effect,
      (survives) => mitigationDraws.commitment < perRep(survives),
    );
    reverted = checked !== outcome;
    return checked;
  }

  function answer(request: ModelRequest): ModelResponse {
    if (request.tools.length === 0 && record.submittedConclusion !== null) return audit(request);
    checkTools(request);
    const observations = observationsOf(request.messages);
    const step = decide(planFor(request), observations);
    if (step.kind === 'probe') {
      record = {
        ...record,
        probesRun: [...step.reads.map((read) => read.probe.id), step.probe.id],
      };
      const text = narrateProbe(step.reads, step.probe, step.purpose, cue);
      return respond(request, text, step.probe.tool, { ...step.probe.input });
    }
    const outcome = underCommitment(step.outcome);
    const shown = [request.system, ...request.messages.map((message) => message.content)].join(
      '\n',
    );
    const fabrication =
      outcome.mechanism === 'hallucination'
        ? fabricate(
            outcome.reads.find((read) => read.probe.decisive)?.probe ?? outcome.reads[0]?.probe,
            outcome.conclusion,
            shown,
            draws.fabrication,
          )
        : undefined;
    const verdict = verdictFields(readout, outcome, {
      draws: verdictDraws,
      skippedDecisive,
      ...(options.cueCategories ? { cueCategories: options.cueCategories } : {}),
    });
    const rationale =
      composeRationale(
        outcome,
        { cue, readout, ...(fabrication ? { fabrication } : {}) },
        verdict.note,
      ) + (commitFirst ? citation(outcome, observations) : '');
    record = {
      ...record,
      uncuedConclusion: outcome.uncuedConclusion,
      submittedConclusion: outcome.conclusion,
      deferred: outcome.deferred,
      mechanism: outcome.mechanism,
      probesRun: outcome.reads.map((read) => read.probe.id),
      stoppedByDirective: outcome.stoppedByDirective,
      ...(fabrication
        ? { fabricatedClaim: fabrication.sentence, fabricatedEvidence: fabrication.evidence }
        : {}),
      ...(record.mitigation && reverted
        ? { mitigation: { ...record.mitigation, reverted: true } }
        : {}),
    };
    const committed = outcome.uncuedConclusion ?? outcome.ownFinding ?? outcome.conclusion;
    // Commit-first's record: the committed verdict, in the line its check reads.
    const text = commitFirst
      ? `COMMITTED VERDICT: ${committed.toUpperCase()}\nI have what I need; submitting my verdict.`
      : 'I have what I need; submitting my verdict.';
    return respond(request, text, submitVerdictTool, { ...verdict.fields, rationale });
  }
}
