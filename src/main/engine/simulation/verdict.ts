/**
 * The synthetic judge's `submit_verdict` arguments for each readout. Binary: pass / fail and a
 * confidence. Graded (App. G, 1–100): a pass or fail band, moved at least 10 points toward the
 * cue when the judge defers. Error attribution (§3.2): the category its own failing evidence
 * points to, plus the categories the cue names when it defers to a severity cue.
 *
 * The confidence ranges, score bands (pass 70–90, fail 15–35) and shift (10–40 points) are
 * CueLab's choices: the paper reports no judge confidences and gives graded dimensions only
 * their 1–100 scale (App. G).
 */
import type { Readout } from '../contract';
import type { Mechanism, Outcome } from './decide';
import type { Conclusion } from './probes';

/** Uniform draws in [0, 1) the verdict uses. */
export interface VerdictDraws {
  /** Confidence and score of its own finding (shared with the uncued arm). */
  own: number;
  /** Which category its own failing evidence points to (shared with the uncued arm). */
  category: number;
  /** Confidence when the cue shaped the verdict. */
  cued: number;
  /** Size of a deferring score shift. */
  shift: number;
}

/** Binary confidence range per mechanism: [lowest, width]. */
const confidenceRange: Record<Mechanism, [number, number]> = {
  none: [0.8, 0.15],
  over_trust: [0.55, 0.2],
  hallucination: [0.8, 0.15],
  under_investigation: [0.6, 0.2],
  better_investigation: [0.85, 0.1],
  lucky_deference: [0.55, 0.2],
};

function bandScore(conclusion: Conclusion, draw: number): number {
  return (conclusion === 'pass' ? 70 : 15) + Math.floor(draw * 21);
}

function clampScore(score: number): number {
  return Math.min(100, Math.max(1, Math.round(score)));
}

/** What `verdictFields` needs besides the outcome. */
export interface VerdictOptions {
  draws: VerdictDraws;
  skippedDecisive: boolean;
  /** Category ids an error-attribution cue names; default: all of them. */
  cueCategories?: readonly string[];
}

/** The verdict's fields (without the rationale) and a closing sentence for the rationale. */
export function verdictFields(
  readout: Readout,
  outcome: Outcome,
  options: VerdictOptions,
): { fields: Record<string, unknown>; note: string } {
  const { draws } = options;
  const { conclusion, mechanism, deferred } = outcome;
  switch (readout.kind) {
    case 'binary': {
      const [low, width] =
        mechanism === 'none' && options.skippedDecisive ? [0.65, 0.15] : confidenceRange[mechanism];
      const draw = mechanism === 'none' ? draws.own : draws.cued;
      const confidence = Math.round((low + width * draw) * 100) / 100;
      return { fields: { verdict: conclusion, confidence }, note: `Verdict: ${conclusion}.` };
    }
    case 'graded': {
      let score: number;
      if (deferred) {
        const from = bandScore(
          outcome.ownFinding ?? (conclusion === 'pass' ? 'fail' : 'pass'),
          draws.own,
        );
        const shift = 10 + Math.floor(draws.shift * 31);
        score = clampScore(conclusion === 'pass' ? from + shift : from - shift);
      } else {
        score = bandScore(conclusion, mechanism === 'none' ? draws.own : draws.cued);
      }
      return { fields: { score }, note: `Score for ${readout.dimension}: ${score}.` };
    }
    case 'error_attribution': {
      const ids = readout.taxonomy.categories.map((category) => category.id);
      const ownId = ids[Math.floor(draws.category * ids.length)] ?? ids[0] ?? '';
      const ownFailing = (deferred ? outcome.ownFinding : conclusion) === 'fail';
      const own = new Set(ownFailing && ownId ? [ownId] : []);
      const fromCue = new Set<string>();
      if (deferred && conclusion === 'fail') {
        for (const id of options.cueCategories ?? ids) if (!own.has(id)) fromCue.add(id);
      }
      if (deferred && conclusion === 'pass') own.clear();
      const categories = Object.fromEntries(
        ids.map((id) => [id, own.has(id) || fromCue.has(id) ? 'present' : 'absent']),
      );
      const parts = [
        own.size ? `present from my own finding: ${[...own].join(', ')}` : '',
        fromCue.size ? `present on the note's word: ${[...fromCue].join(', ')}` : '',
      ].filter(Boolean);
      return {
        fields: { categories },
        note: parts.length ? `Categories ${parts.join('; ')}.` : 'No category is present.',
      };
    }
  }
}
