/**
 * The design of the generated paper-scale study (part c): its spec, its items, which items each
 * judge gets right and which flip under each arm (from Table 6), and the mechanism mixture of the
 * flips (Fig. 17 for harmful, Fig. 15 for helpful). Pure: a seeded generator in, plans out.
 */
import { TABLE_6, type Table6Row } from '../src/main/engine/paper/numbers';
import type { Random } from '../src/main/engine/random';
import type { StudyCondition } from '../src/main/engine/runner/conditions';
import { studySpecSchema, type StudySpec } from '../src/shared/study-spec';

/** A pass/fail verdict. */
export type Outcome = 'pass' | 'fail';

/** The other verdict. */
export function other(verdict: Outcome): Outcome {
  return verdict === 'pass' ? 'fail' : 'pass';
}

/** How strongly each cued arm moves verdicts, relative to Table 6's strong system cue. */
export const flipScale: Readonly<Record<string, number>> = {
  'preset:strong@system': 1,
  'preset:strong@system+guard': 5 / 18, // Table 1: the guard takes harmful flips from 18% to 5%
  'preset:strong@user': 0.8,
  'preset:strong@user+guard': 0.25,
  'preset:weak@system': 0.4,
};

/** The generated study's spec: Table 6's four judges, two cues, two placements, the guard. */
export function paperScaleSpec(suite: string): StudySpec {
  const judges = [...new Set(TABLE_6.map((row) => row.judge))].map((judge) => {
    const id = judge.toLowerCase();
    return id.startsWith('opus') || id.startsWith('sonnet')
      ? { id, provider: 'anthropic', model: `claude-${id}` }
      : { id, provider: 'openai-compatible', model: id, baseUrl: 'http://127.0.0.1:8000/v1' };
  });
  return studySpecSchema.parse({
    name: 'paper scale (generated for the bench)',
    suite,
    judges,
    reps: 3,
    arms: {
      cues: [
        { kind: 'preset', preset: 'strong' },
        { kind: 'preset', preset: 'weak' },
      ],
      placements: ['system', 'user'],
      mitigations: [[], [{ kind: 'builtin', id: 'guard' }]],
      drop: ['preset:weak@user', 'preset:weak@user+guard', 'preset:weak@system+guard'],
    },
  });
}

/** One study item. */
export interface PaperItem {
  id: string;
  dataset: string;
  gold: Outcome;
}

/** The five datasets at their Table 6 sizes (980 items), with seeded gold labels. */
export function paperItems(random: Random): PaperItem[] {
  const sizes = new Map<string, number>();
  for (const row of TABLE_6) sizes.set(row.dataset, Math.max(sizes.get(row.dataset) ?? 0, row.n));
  return [...sizes].flatMap(([dataset, size]) =>
    Array.from({ length: size }, (_, index) => ({
      id: `${dataset}-${String(index).padStart(3, '0')}`,
      dataset,
      // SWE-bench Verified is pass-heavy (App. D); the others about even.
      gold: random() < (dataset === 'swe-bench-verified' ? 0.7 : 0.5) ? 'pass' : 'fail',
    })),
  );
}

/** `count` indices of [0, size) chosen by a seeded shuffle. */
function chosen(random: Random, size: number, count: number): Set<number> {
  const order = Array.from({ length: size }, (_, index) => index);
  for (let index = size - 1; index > 0; index -= 1) {
    const swap = Math.floor(random() * (index + 1));
    [order[index], order[swap]] = [order[swap] ?? 0, order[index] ?? 0];
  }
  return new Set(order.slice(0, count));
}

/** For one judge × dataset: the items its uncued majority gets right, and which flip per arm. */
export interface CellPlan {
  correct: Set<number>;
  /** Condition key → items whose cued majority flips. */
  flips: Map<string, Set<number>>;
}

/** Table 6's gate / n, HF % and HELP % for one cell, scaled per arm by `flipScale`. */
export function cellPlan(
  cell: Table6Row,
  size: number,
  conditions: readonly StudyCondition[],
  random: Random,
): CellPlan {
  const correct = chosen(random, size, Math.round((size * cell.gate) / cell.n));
  const right = [...Array(size).keys()].filter((index) => correct.has(index));
  const wrong = [...Array(size).keys()].filter((index) => !correct.has(index));
  const flips = new Map<string, Set<number>>();
  for (const condition of conditions) {
    const scale = flipScale[condition.key];
    if (scale === undefined) continue;
    const harmful = chosen(
      random,
      right.length,
      Math.round((right.length * cell.hfPct * scale) / 100),
    );
    const helpful = chosen(
      random,
      wrong.length,
      Math.round((wrong.length * cell.helpPct * scale) / 100),
    );
    flips.set(
      condition.key,
      new Set([
        ...[...harmful].map((index) => right[index] ?? -1),
        ...[...helpful].map((index) => wrong[index] ?? -1),
      ]),
    );
  }
  return { correct, flips };
}

const harmfulMix: readonly [string, number][] = [
  // Fig. 17, task success: hallucination 33%, over-trust 46%, the rest under-investigation.
  ['over_trust', 0.46],
  ['hallucination', 0.33],
  ['under_investigation', 0.21],
];
const helpfulMix: readonly [string, number][] = [
  // Fig. 15, pooled: over-trust (lucky deference) 29%, better investigation 33%, re-weighting 38%.
  ['lucky_deference', 0.29],
  ['better_investigation', 0.33],
  ['evidence_reweighting', 0.38],
];

/** A diff-classifier label for a flipped rep, drawn from the paper's mixture. */
export function mechanismLabel(kind: 'harmful' | 'helpful', random: Random): string {
  const mix = kind === 'harmful' ? harmfulMix : helpfulMix;
  let roll = random();
  for (const [label, share] of mix) {
    roll -= share;
    if (roll < 0) return label;
  }
  return mix[0]?.[0] ?? 'none';
}
