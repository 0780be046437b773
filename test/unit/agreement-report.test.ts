import { describe, expect, it } from 'vitest';
import {
  agreementReport,
  majorityLabel,
  percentUnanimous,
  scoreAgainst,
  type LabelledCase,
} from '../../src/main/engine/metajudge/agreement/report';

const OT = 'over_trust';
const H = 'hallucination';
const U = 'under_investigation';

/** Three annotators and two classifiers on five flips over two datasets (hand-computed below). */
const cases: LabelledCase[] = [
  {
    repId: 'r1',
    dataset: 'fs',
    labels: { 'human:A1': OT, 'human:A2': OT, 'human:A3': OT, ensemble: OT, diff: OT },
  },
  {
    repId: 'r2',
    dataset: 'fs',
    labels: { 'human:A1': OT, 'human:A2': H, 'human:A3': OT, ensemble: H, diff: OT },
  },
  {
    repId: 'r3',
    dataset: 'fs',
    labels: { 'human:A1': U, 'human:A2': U, 'human:A3': U, ensemble: U, diff: 'invalid' },
  },
  {
    repId: 'r4',
    dataset: 'pg',
    labels: { 'human:A1': H, 'human:A2': OT, 'human:A3': U, ensemble: H, diff: H },
  },
  {
    repId: 'r5',
    dataset: 'pg',
    labels: { 'human:A1': OT, 'human:A2': OT, 'human:A3': H, ensemble: OT },
  },
];
const options = { raters: ['human:A1', 'human:A2', 'human:A3'], classifiers: ['ensemble', 'diff'] };

describe('App. P agreement summaries', () => {
  it('takes a 2-of-3 gold label only when two raters agree', () => {
    expect(majorityLabel([OT, H, OT], 2)).toBe(OT);
    expect(majorityLabel([H, OT, U], 2)).toBeNull();
    expect(majorityLabel([OT, H], 2)).toBeNull();
    expect(
      percentUnanimous([
        [OT, OT],
        [OT, H],
      ]),
    ).toBe(0.5);
    expect(percentUnanimous([])).toBeNull();
  });

  it('scores a classifier against gold with accuracy and κ, skipping cases without gold', () => {
    const score = scoreAgainst([OT, OT, null, U], [OT, H, OT, U]);
    expect(score).toMatchObject({ n: 3, correct: 2 });
    expect(score.accuracy).toBeCloseTo(2 / 3, 10);
  });

  it('reports raters, gold and classifiers overall and per dataset', () => {
    const report = agreementReport(cases, options);
    const overall = report.overall;
    expect(overall.cases).toBe(5);
    expect(overall.fullyRated).toBe(5);
    // Unanimous: r1 and r3.
    expect(overall.unanimous).toBeCloseTo(2 / 5, 10);
    // Gold: r1 OT, r2 OT, r3 U, r4 none (three-way split), r5 OT.
    expect(overall.gold).toBe(4);
    expect(overall.goldDistribution).toEqual({ [OT]: 3, [U]: 1 });
    const ensemble = overall.classifiers.find((entry) => entry.source === 'ensemble');
    // Against gold on r1, r2, r3, r5: right on r1, r3, r5.
    expect(ensemble).toMatchObject({ n: 4, correct: 3 });
    const diff = overall.classifiers.find((entry) => entry.source === 'diff');
    // r5 unlabelled by the diff; 'invalid' on r3 matches no gold.
    expect(diff).toMatchObject({ n: 3, correct: 2 });
    expect(overall.pairwise.map((pair) => [pair.first, pair.second, pair.n])).toEqual([
      ['human:A1', 'human:A2', 5],
      ['human:A1', 'human:A3', 5],
      ['human:A2', 'human:A3', 5],
    ]);
    expect(Object.keys(ensemble?.perRater ?? {})).toEqual(options.raters);
    expect(report.byDataset.map((entry) => [entry.dataset, entry.summary.cases])).toEqual([
      ['fs', 3],
      ['pg', 2],
    ]);
  });

  it('uses one source as gold when asked (the synthetic judge’s truth)', () => {
    const withTruth = cases.map((entry) => ({
      ...entry,
      labels: { ...entry.labels, truth: entry.labels['human:A1'] ?? OT },
    }));
    const report = agreementReport(withTruth, { ...options, goldSource: 'truth' });
    expect(report.overall.gold).toBe(5);
    expect(report.overall.classifiers.find((entry) => entry.source === 'ensemble')).toMatchObject({
      n: 5,
      correct: 4,
    });
  });
});
