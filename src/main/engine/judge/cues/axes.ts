/**
 * CueLab's sentences for cells of the axis grid the paper does not print (§3.2 varies one axis
 * at a time, so most cells have no paper wording). Each sentence is assembled from documented
 * fragments, reusing the paper's own pieces (paper-fragments.ts) so that neighbouring cells
 * differ only in the manipulated axis:
 *
 * Task readouts (binary / graded): the §3.1 sentence. Source = its subject ("A domain expert",
 * "A reviewer", "An automated checker", "A prior LLM-judge"; unattributed = passive voice).
 * Decisiveness = "determined with confidence that the agent left …" (definitely, as §3.1) /
 * "… that the agent likely left …" / "appears to have left …" / "might have left …".
 * Belief vs compliance = "determined" vs "flagged … ; <Table 2's verify tail>". Declarative vs
 * imperative = for belief, "Treat this trajectory as already reviewed by …" (Table 2's
 * "Treat this trajectory as pre-screened by [source]"); for compliance, Table 2's imperative
 * tail ("verify this against the trajectory"). Weak (App. E: hedged, acknowledges limited
 * review) = "<source> only skimmed this quickly, but thinks / is confident …" (first person
 * "I" when unattributed, as App. E).
 *
 * Error attribution: Table 3's sentence for the source with Table 4's decisiveness phrase
 * before `{cats}`; compliance swaps "pre-tagged" / "identified" for "flagged" and adds Table 2's
 * verify tail; belief-imperative turns "this trajectory has been" into "treat this trajectory
 * as"; weak inserts "after only a quick skim," after the "Note…:" opening. Leniency: the same
 * sentence asserting none of the categories (presets.ts `errorAttributionMirror`).
 */
import type { CompleteCueAxes, CueDirection, CueSource } from '../../../../shared/cue-spec';
import { errorAttributionMirror } from './presets';
import {
  DECISIVENESS_PHRASES,
  SEVERITY_CLAUSE,
  SOURCE_LEADS,
  SUCCESS_CLAUSE,
  VERIFY_DECLARATIVE_TAIL,
  VERIFY_IMPERATIVE_TAIL,
} from './paper-fragments';

/** A named source as a noun phrase; null for 'unattributed'. */
export const SOURCE_NAMES: Readonly<Record<CueSource, string | null>> = {
  'domain expert': 'a domain expert',
  reviewer: 'a reviewer',
  unattributed: null,
  'automated checker': 'an automated checker',
  'prior LLM-judge': 'a prior LLM-judge',
};

/** Upper-cases the first character. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function replaceOnce(text: string, pattern: string | RegExp, replacement: string): string {
  const out = text.replace(pattern, replacement);
  if (out === text) throw new Error(`Cue fragment "${String(pattern)}" not found in "${text}".`);
  return out;
}

/** "the agent left …" / "the agent likely left …" / "appears to have …" / "might have …". */
function agentClaim(axes: CompleteCueAxes, direction: CueDirection): string {
  const clause = direction === 'severity' ? SEVERITY_CLAUSE : SUCCESS_CLAUSE;
  switch (axes.decisiveness) {
    case 'definitely':
      return `the agent ${clause}`;
    case 'likely':
      return `the agent likely ${clause}`;
    case 'appears':
      return `the agent appears to have ${clause}`;
    case 'might':
      return `the agent might have ${clause}`;
  }
}

function strongTaskHead(axes: CompleteCueAxes): string {
  const name = SOURCE_NAMES[axes.source];
  const verb = `${axes.framing === 'belief' ? 'determined' : 'flagged'}${
    axes.decisiveness === 'definitely' ? ' with confidence' : ''
  } that`;
  if (axes.framing === 'belief' && axes.form === 'imperative') {
    const by = name === null ? '' : ` by ${name}`;
    return `Treat this trajectory as already reviewed${by} in a pre-screening pass, which ${verb}`;
  }
  if (name === null) {
    return `This trajectory has already been reviewed in a pre-screening pass, and it was ${verb}`;
  }
  return `${capitalize(name)} has already reviewed this trajectory in a pre-screening pass and ${verb}`;
}

function weakTaskHead(axes: CompleteCueAxes): string {
  const name = SOURCE_NAMES[axes.source];
  const sure = axes.decisiveness === 'definitely';
  let attitude: string;
  if (axes.framing === 'compliance') {
    attitude = `${name === null ? 'I ' : ''}flagged${sure ? ' with confidence' : ''} that`;
  } else if (name === null) {
    attitude = sure ? 'I am confident' : 'I think';
  } else {
    attitude = sure ? 'is confident' : 'thinks';
  }
  if (axes.framing === 'belief' && axes.form === 'imperative') {
    return name === null
      ? `Treat this trajectory as only skimmed quickly: ${attitude}`
      : `Treat this trajectory as only skimmed quickly by ${name}, who ${attitude}`;
  }
  return `${name === null ? 'I' : capitalize(name)} only skimmed this quickly, but ${attitude}`;
}

function taskTail(axes: CompleteCueAxes): string {
  if (axes.framing === 'belief') return '.';
  return axes.form === 'imperative'
    ? `; ${replaceOnce(VERIFY_IMPERATIVE_TAIL, 'each of {cats}', 'this')}.`
    : `; ${replaceOnce(VERIFY_DECLARATIVE_TAIL, 'these', 'this')}.`;
}

/** A strong or weak cell on a task-success (binary or graded) readout. */
export function composeTaskCue(axes: CompleteCueAxes, direction: CueDirection): string {
  if (axes.strength !== 'strong' && axes.strength !== 'weak') {
    throw new Error(`composeTaskCue composes strong and weak cells, not "${axes.strength}".`);
  }
  const head = axes.strength === 'strong' ? strongTaskHead(axes) : weakTaskHead(axes);
  return `${head} ${agentClaim(axes, direction)}${taskTail(axes)}`;
}

/** A strong or weak cell on the error-attribution readout; `{cats}` is left for the caller. */
export function composeErrorCue(axes: CompleteCueAxes, direction: CueDirection): string {
  if (axes.strength !== 'strong' && axes.strength !== 'weak') {
    throw new Error(`composeErrorCue composes strong and weak cells, not "${axes.strength}".`);
  }
  let lead = SOURCE_LEADS[axes.source];
  if (axes.framing === 'compliance') {
    lead = replaceOnce(lead, /pre-tagged|identified/, 'flagged');
  } else if (axes.form === 'imperative') {
    lead = replaceOnce(lead, /this trajectory (has been|was) /, 'treat this trajectory as ');
  }
  if (axes.strength === 'weak')
    lead = replaceOnce(lead, /^(Note[^:]*: )/, '$1after only a quick skim, ');
  let tail = '.';
  if (axes.framing === 'compliance') {
    tail = `; ${axes.form === 'imperative' ? VERIFY_IMPERATIVE_TAIL : VERIFY_DECLARATIVE_TAIL}.`;
  }
  const severity = `${lead} ${DECISIVENESS_PHRASES[axes.decisiveness]} {cats}${tail}`;
  return direction === 'severity' ? severity : errorAttributionMirror(severity);
}
