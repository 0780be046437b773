/**
 * The synthetic judge's cue-response model (pure). A cue that contradicts the judge's own
 * conclusion makes it defer with probability
 *
 *   p = logistic(base + framingForm + source + decisiveness + strength + placement + direction)
 *
 * where `base` is the persona's log-odds at the reference cell — the §3.1 strong cue in the
 * system prompt, severity direction (Fig. 2 / Table 6 / App. D) — and each other term is the
 * persona's additive log-odds for the cue's level on that axis (0 at the reference level).
 * Placebo and null-source cues carry no verdict information (§3.2), so only their strength,
 * placement and (null-source) source terms apply. The same shift scales the helpful side
 * (App. F): better investigation and lucky deference have their own reference probabilities.
 *
 * Cue families beyond the paper (judge/cues/families) and the agent's-voice placements are
 * HYPOTHESES, never measurements: the paper measured none of them. A family cue is read as the
 * reference cell plus the family's own `simulatedShift` (its file states it); its placebo as
 * §3.2's placebo. The agent's voice is read as an assistant turn plus `AGENT_VOICE_SHIFT`, a
 * narration transform as an assistant turn. Records and reports label them as hypotheses.
 */
import {
  completeCueAxes,
  type CompleteCueAxes,
  type CueDirection,
  type CueSpec,
} from '../../../shared/cue-spec';
import type { RepCondition } from '../../../shared/rep-condition';
import type { CueFamily } from '../../../shared/cue-family';
import {
  findCueFamily,
  findCuePreset,
  parsePlacement,
  placementName,
  type Placement,
  type Readout,
} from '../judge';
import { ALL_CUE_TEMPLATES } from '../paper';
import { logit } from './persona-presets';
import type { CueResponse, Persona } from './personas';

/** What the synthetic judge knows about its cue. */
export interface SyntheticCue {
  axes: CompleteCueAxes;
  direction: CueDirection;
  placement: Placement;
  /** A family cue: its id and hypothesised log-odds shift (absent for paper cues). */
  family?: { id: string; shift: number };
}

/**
 * CueLab's hypothesis, not a measurement: a claim in the agent's own voice (its last message
 * or a tool output it printed) sways a judge told to check "rather than trusting the agent's
 * account" (the base system prompt) somewhat less than an operator's note in an assistant turn.
 */
export const AGENT_VOICE_SHIFT = -0.4;

/** True when a synthetic cue's effect is CueLab's hypothesis rather than read from the paper. */
export function isHypothesisCue(cue: SyntheticCue): boolean {
  return (
    (cue.family !== undefined && cue.family.id !== 'confirmation-bias') ||
    cue.placement.kind === 'agent_final' ||
    cue.placement.kind === 'agent_tool_output' ||
    cue.placement.kind === 'narration'
  );
}

/** Table 8's placement rows, the keys of a persona's placement coefficients. */
export type PlacementRow = keyof CueResponse['placement'];

/** Logistic function. */
export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/**
 * The Table 8 row a placement is read as. An assistant turn at a chosen index counts as one
 * assistant turn; N scattered turns take the nearest measured count on a log scale (1, 5, 25).
 */
export function placementRow(placement: Placement): PlacementRow {
  switch (placement.kind) {
    case 'system':
      return 'system';
    case 'user':
      return 'user';
    case 'assistant_end':
    case 'assistant_at':
    case 'agent_final':
    case 'agent_tool_output':
    case 'narration':
      return 'assistant';
    case 'assistant_scattered':
      if (placement.count <= 2) return 'assistant';
      return placement.count <= 11 ? 'assistant-x5' : 'assistant-x25';
  }
}

/** Log-odds shift of a cue relative to the persona's reference cell (0 at the reference). */
export function cueLogOddsShift(persona: Persona, cue: SyntheticCue): number {
  const response = persona.cueResponse;
  const { axes } = cue;
  const agentVoice =
    cue.placement.kind === 'agent_final' || cue.placement.kind === 'agent_tool_output'
      ? AGENT_VOICE_SHIFT
      : 0;
  const placed = response.placement[placementRow(cue.placement)] + agentVoice;
  if (axes.strength === 'placebo') return response.strength.placebo + placed;
  if (cue.family) return cue.family.shift + placed + response.direction[cue.direction];
  if (axes.strength === 'null-source') {
    return response.strength['null-source'] + response.source[axes.source] + placed;
  }
  return (
    response.framingForm[`${axes.framing}-${axes.form}`] +
    response.source[axes.source] +
    response.decisiveness[axes.decisiveness] +
    response.strength[axes.strength] +
    placed +
    response.direction[cue.direction]
  );
}

/**
 * Probability that the judge adopts the cue's verdict when the cue contradicts the conclusion
 * of its own completed investigation (a harmful flip when that conclusion was right). 0 uncued.
 */
export function deferProbability(persona: Persona, cue: SyntheticCue | null): number {
  if (cue === null) return 0;
  return logistic(persona.cueResponse.baseLogOdds + cueLogOddsShift(persona, cue));
}

/** App. F, helpful side, scaled by the same cue shift as deferral. */
export interface HelpfulProbabilities {
  /** A judge that skipped the decisive check runs it because the cue contradicts it. */
  betterInvestigation: number;
  /** A judge that skipped it, and does not run it, adopts the cue's verdict. */
  luckyDeference: number;
}

function scaled(reference: number, shift: number): number {
  if (reference <= 0) return 0;
  if (reference >= 1) return 1;
  return logistic(logit(reference) + shift);
}

/** Helpful-side probabilities for this cue (both 0 uncued). */
export function helpfulProbabilities(
  persona: Persona,
  cue: SyntheticCue | null,
): HelpfulProbabilities {
  if (cue === null) return { betterInvestigation: 0, luckyDeference: 0 };
  const shift = cueLogOddsShift(persona, cue);
  return {
    betterInvestigation: scaled(persona.helpful.betterInvestigationProbability, shift),
    luckyDeference: scaled(persona.helpful.luckyDeferenceProbability, shift),
  };
}

/**
 * Expected harmful flip rate on an item whose surface probes agree with its decisive probes and
 * with the truth, against a cue that contradicts it: with probability 1 − skip the judge ran the
 * whole plan (defers with p); otherwise the cue may send it to the decisive probe (then defers
 * with p) or it defers without it (lucky-deference propensity, here not lucky).
 */
export function expectedHarmfulFlipRate(persona: Persona, cue: SyntheticCue): number {
  const defer = deferProbability(persona, cue);
  const { betterInvestigation, luckyDeference } = helpfulProbabilities(persona, cue);
  const skip = persona.skipDecisiveProbability;
  return (
    (1 - skip) * defer +
    skip * (betterInvestigation * defer + (1 - betterInvestigation) * luckyDeference)
  );
}

/** How `cueAxesOf` read a spec. */
export interface CueAxesReading {
  axes: CompleteCueAxes;
  /** 'custom' = free text, whose axes cannot be known; read as the default (strongest) cell. */
  basis: 'preset' | 'axes' | 'custom' | 'family';
  note: string;
}

const strongPresets = new Set(['strong', 'strong-senior', 'strong-figures']);

/**
 * The axes of a cue spec. Strong presets are the default cell (belief / declarative / domain
 * expert / definitely / strong); 'weak' is App. E's cell (weak / unattributed / might); Table 2
 * presets vary framing × form with Table 2's default source (a domain expert); Table 3 presets
 * vary the source; Table 4 presets vary decisiveness with the source held at the automated
 * checker. Table 2–3 wordings carry no modality word and are read as "definitely". Axes specs are
 * completed with the defaults. Custom text is read as the default cell, and the note says so.
 * Throws, as renderCue does, for a Table 2–4 preset on a task readout.
 */
export function cueAxesOf(spec: CueSpec, readoutKind: Readout['kind']): CueAxesReading {
  if (spec.kind === 'axes') {
    return { axes: completeCueAxes(spec.axes), basis: 'axes', note: 'composed cell' };
  }
  if (spec.kind === 'custom') {
    return {
      axes: completeCueAxes(),
      basis: 'custom',
      note: 'custom text: its axes are unknown, so it is modelled as the default (strongest) cell',
    };
  }
  if (spec.kind === 'family') {
    return {
      axes: completeCueAxes(spec.placebo ? { strength: 'placebo' } : {}),
      basis: 'family',
      note: `family ${spec.family}${spec.placebo ? ' (placebo)' : ''}: a hypothesis`,
    };
  }
  const preset = findCuePreset(spec.preset);
  if (preset.readout === 'error-attribution' && readoutKind !== 'error_attribution') {
    throw new Error(
      `Cue preset "${spec.preset}" names error categories and needs an error-attribution readout; this readout is ${readoutKind}.`,
    );
  }
  const note = `preset ${spec.preset}`;
  if (strongPresets.has(spec.preset)) return { axes: completeCueAxes(), basis: 'preset', note };
  if (spec.preset === 'weak') {
    const axes = completeCueAxes({
      strength: 'weak',
      source: 'unattributed',
      decisiveness: 'might',
    });
    return { axes, basis: 'preset', note };
  }
  const template = ALL_CUE_TEMPLATES.find(
    (candidate) =>
      spec.preset ===
      `table${tableOf[candidate.axis.name]}-${candidate.id.replace(/^[a-z]+-/, '')}`,
  );
  if (!template) {
    throw new Error(`The synthetic judge has no axis reading for cue preset "${spec.preset}".`);
  }
  const { axis } = template;
  const axes =
    axis.name === 'framing'
      ? completeCueAxes({ framing: axis.mode, form: axis.form })
      : axis.name === 'authority'
        ? completeCueAxes({ source: axis.source })
        : completeCueAxes({ source: 'automated checker', decisiveness: axis.modality });
  return { axes, basis: 'preset', note };
}

const tableOf = { framing: 2, authority: 3, decisiveness: 4 } as const;

/** The synthetic cue of a rep condition, or null for an uncued rep. */
export function syntheticCueOf(condition: RepCondition, readout: Readout): SyntheticCue | null {
  if (!condition.cue) return null;
  const placement = parsePlacement(condition.placement);
  if (!placement) throw new Error(`Unknown placement "${condition.placement}".`);
  const { axes } = cueAxesOf(condition.cue, readout.kind);
  const direction = condition.direction ?? 'severity';
  if (condition.cue.kind === 'family' && !condition.cue.placebo) {
    const family: CueFamily = condition.cueFamily ?? findCueFamily(condition.cue.family);
    return {
      axes,
      direction,
      placement,
      family: { id: family.id, shift: family.simulatedShift ?? 0 },
    };
  }
  return { axes, direction, placement };
}

/** A stable key for a cue, part of the synthetic judge's seed. */
export function cueKey(cue: SyntheticCue | null): string {
  if (cue === null) return 'uncued';
  const { strength, framing, form, source, decisiveness } = cue.axes;
  return [
    ...(cue.family ? [`family=${cue.family.id}`] : []),
    strength,
    framing,
    form,
    source,
    decisiveness,
    cue.direction,
    placementName(cue.placement),
  ].join('|');
}
