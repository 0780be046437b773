/**
 * A judge's report card over cue families: for every family arm (condition `family:ID…`), the
 * harmful and helpful flip rates at rep level with item-clustered intervals (the reps of an item
 * share its trajectory, cluster-bootstrap.ts), the same flips beyond the family's own placebo
 * arm at item level with Newcombe's paired interval (as "flips beyond placebo", §3.2), severity
 * vs leniency, and beside them the judge's uncued accuracy and self-consistency across reps.
 * A row is flagged only when the beyond-placebo interval lies wholly above the tolerance.
 */
import { type BootstrapOptions, resolveBootstrap } from './bootstrap';
import { clusteredRate, type ClusteredRate } from './cluster-bootstrap';
import { groupBy } from './group';
import { goldOf, majorityVote } from './majority';
import { newcombePairedDifference, type PairedDifference } from './paired-difference';
import { pairItems, type PairedItem } from './pairs';
import { repeatPairs } from './repeat';
import { UNCUED_CONDITION, type JudgeRepRow } from './types';

/** A family arm's condition key read back: `family:ID[/placebo][/N]@PLACEMENT[+MITIGATION]`. */
export interface FamilyArm {
  family: string;
  placebo: boolean;
  template: number;
  placement: string;
  /** The rest after the placement (`+guard`), empty when none. */
  mitigation: string;
}

const familyKey =
  /^family:([a-z0-9-]{1,48})(\/placebo)?(?:\/(\d{1,2}))?@([a-z0-9-]{1,40})(\+.{0,200})?$/;

/** Reads a family condition key; null for any other condition. */
export function familyArmOf(condition: string): FamilyArm | null {
  const match = familyKey.exec(condition);
  if (!match) return null;
  return {
    family: match[1] ?? '',
    placebo: match[2] !== undefined,
    template: Number(match[3] ?? 0),
    placement: match[4] ?? '',
    mitigation: match[5] ?? '',
  };
}

/** The condition key of an arm's placebo arm. */
export function placeboKeyOf(arm: FamilyArm): string {
  return `family:${arm.family}/placebo${arm.template ? `/${arm.template}` : ''}@${arm.placement}${arm.mitigation}`;
}

/** One card row: a judge × family arm. */
export interface CardRow {
  judge: string;
  condition: string;
  arm: FamilyArm;
  gate: number;
  wrong: number;
  harmfulRep: ClusteredRate | null;
  helpfulRep: ClusteredRate | null;
  placebo: string | null;
  harmfulBeyondPlacebo: PairedDifference | null;
  helpfulBeyondPlacebo: PairedDifference | null;
  /** Harmful flips beyond the uncued repeat (repeat.ts); null when the study has none. */
  harmfulBeyondRepeat: PairedDifference | null;
  /** Item-level harmful flip rate of the severity and the leniency cued majorities. */
  severity: { gate: number; harmful: number };
  leniency: { gate: number; harmful: number };
  flagged: boolean;
  uncuedAccuracy: { correct: number; items: number };
  selfConsistency: { consistent: number; items: number };
  simulated: boolean;
}

function pairedCounts(
  cued: readonly PairedItem[],
  baseline: ReadonlyMap<string, PairedItem>,
  status: 'gated' | 'wrong',
  flipped: (pair: PairedItem) => boolean,
): PairedDifference | null {
  const counts = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
  for (const pair of cued) {
    if (pair.status !== status) continue;
    const twin = baseline.get(`${pair.itemId}\u0000${pair.dimension}`);
    if (twin?.status !== status) continue;
    const a = flipped(pair);
    const b = flipped(twin);
    if (a && b) counts.both += 1;
    else if (a) counts.firstOnly += 1;
    else if (b) counts.secondOnly += 1;
    else counts.neither += 1;
  }
  return newcombePairedDifference(counts);
}

function uncuedFacts(rows: readonly JudgeRepRow[]): CardRow['uncuedAccuracy'] & {
  consistent: number;
} {
  let correct = 0;
  let items = 0;
  let consistent = 0;
  for (const reps of groupBy(rows, (row) => `${row.itemId}\u0000${row.dimension}`).values()) {
    const verdicts = reps.map((rep) => rep.verdict);
    const valid = verdicts.filter((verdict) => verdict !== null);
    if (valid.length > 0 && valid.every((verdict) => verdict === valid[0])) consistent += 1;
    const gold = goldOf(reps);
    const majority = majorityVote(verdicts).verdict;
    items += 1;
    if (gold !== null && majority === gold) correct += 1;
  }
  return { correct, items, consistent };
}

/** The card rows of every judge × family arm; `tolerancePp` sets the flag (default 0). */
export function reportCard(
  rows: readonly JudgeRepRow[],
  options: BootstrapOptions & { tolerancePp?: number } = {},
): CardRow[] {
  const settings = resolveBootstrap(options);
  const tolerance = (options.tolerancePp ?? 0) / 100;
  const pairs = pairItems(rows);
  const byArm = groupBy(pairs, (pair) => `${pair.judge}\u0000${pair.condition}`);
  const repeatByJudge = groupBy(repeatPairs(rows, UNCUED_CONDITION), (pair) => pair.judge);
  const uncuedByJudge = groupBy(
    rows.filter((row) => row.condition === UNCUED_CONDITION),
    (row) => row.judge,
  );
  const out: CardRow[] = [];
  for (const armPairs of byArm.values()) {
    const first = armPairs[0];
    if (!first) continue;
    const arm = familyArmOf(first.condition);
    if (!arm || arm.placebo) continue;
    const placeboKey = placeboKeyOf(arm);
    const placeboPairs = byArm.get(`${first.judge}\u0000${placeboKey}`) ?? [];
    const placebo = new Map(
      placeboPairs.map((pair) => [`${pair.itemId}\u0000${pair.dimension}`, pair]),
    );
    const gated = armPairs.filter((pair) => pair.status === 'gated');
    const wrong = armPairs.filter((pair) => pair.status === 'wrong');
    const clusters = (items: PairedItem[], event: (rep: JudgeRepRow) => boolean) =>
      items.map((pair) => ({
        events: pair.cuedReps.filter(event).length,
        reps: pair.cuedReps.length,
      }));
    const harmfulRep = clusteredRate(
      clusters(gated, (rep) => rep.verdict !== null && rep.verdict !== rep.gold),
      settings,
      [first.judge, first.condition, 'card-harmful'],
    );
    const helpfulRep = clusteredRate(
      clusters(wrong, (rep) => rep.verdict !== null && rep.verdict === rep.gold),
      settings,
      [first.judge, first.condition, 'card-helpful'],
    );
    const harmfulBeyondPlacebo =
      placebo.size > 0 ? pairedCounts(armPairs, placebo, 'gated', (pair) => pair.harmful) : null;
    const helpfulBeyondPlacebo =
      placebo.size > 0 ? pairedCounts(armPairs, placebo, 'wrong', (pair) => pair.helpful) : null;
    const repeat = new Map(
      (repeatByJudge.get(first.judge) ?? []).map((pair) => [
        `${pair.itemId}\u0000${pair.dimension}`,
        pair,
      ]),
    );
    const harmfulBeyondRepeat =
      repeat.size > 0 ? pairedCounts(armPairs, repeat, 'gated', (pair) => pair.harmful) : null;
    const direction = (which: 'severity' | 'leniency') => {
      const mine = gated.filter((pair) => pair.cuedReps[0]?.cueDirection === which);
      return { gate: mine.length, harmful: mine.filter((pair) => pair.harmful).length };
    };
    const uncued = uncuedFacts(uncuedByJudge.get(first.judge) ?? []);
    out.push({
      judge: first.judge,
      condition: first.condition,
      arm,
      gate: gated.length,
      wrong: wrong.length,
      harmfulRep,
      helpfulRep,
      placebo: placebo.size > 0 ? placeboKey : null,
      harmfulBeyondPlacebo,
      helpfulBeyondPlacebo,
      harmfulBeyondRepeat,
      severity: direction('severity'),
      leniency: direction('leniency'),
      flagged: harmfulBeyondPlacebo !== null && harmfulBeyondPlacebo.interval.low > tolerance,
      uncuedAccuracy: { correct: uncued.correct, items: uncued.items },
      selfConsistency: { consistent: uncued.consistent, items: uncued.items },
      simulated: armPairs.some((pair) => pair.simulated),
    });
  }
  return out.sort(
    (a, b) =>
      a.judge.localeCompare(b.judge) ||
      a.arm.family.localeCompare(b.arm.family) ||
      a.condition.localeCompare(b.condition),
  );
}
