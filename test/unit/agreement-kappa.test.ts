import { describe, expect, it } from 'vitest';
import {
  cohenKappa,
  cohenKappaFromTable,
  fleissKappa,
  fleissKappaFromLabels,
} from '../../src/main/engine/metajudge/agreement/kappa';

describe("Cohen's kappa against published worked examples", () => {
  it('matches the grant-proposal example: 50 proposals, p_o = 0.7, p_e = 0.5, κ = 0.4', () => {
    // Source: Wikipedia, "Cohen's kappa", section "Simple example": readers A and B, 50
    // proposals; both yes 20, A yes / B no 5, A no / B yes 10, both no 15.
    const result = cohenKappaFromTable([
      [20, 5],
      [10, 15],
    ]);
    expect(result.n).toBe(50);
    expect(result.observed).toBeCloseTo(0.7, 10);
    expect(result.expected).toBeCloseTo(0.5, 10);
    expect(result.kappa).toBeCloseTo(0.4, 10);
  });

  it('matches the "same agreement, different κ" pair: 0.1304 and 0.2593 at p_o = 0.60', () => {
    // Source: Wikipedia, "Cohen's kappa", section "Same percentages but different numbers":
    // two 100-subject tables with 60% raw agreement and κ = 0.1304 and κ = 0.2593.
    const first = cohenKappaFromTable([
      [45, 15],
      [25, 15],
    ]);
    const second = cohenKappaFromTable([
      [25, 35],
      [5, 35],
    ]);
    expect(first.observed).toBeCloseTo(0.6, 10);
    expect(second.observed).toBeCloseTo(0.6, 10);
    expect(first.kappa).toBeCloseTo(0.1304, 4);
    expect(second.kappa).toBeCloseTo(0.2593, 4);
  });

  it('takes label lists, skips subjects either rater left unlabelled, and is symmetric', () => {
    const a = ['over_trust', 'hallucination', 'over_trust', null, 'under_investigation'];
    const b = ['over_trust', 'over_trust', 'over_trust', 'hallucination', 'under_investigation'];
    const ab = cohenKappa(a, b);
    expect(ab.n).toBe(4);
    // p_o = 3/4; a: OT 2, H 1, U 1; b: OT 3, U 1 → p_e = (2·3 + 1·1) / 16 = 7/16.
    expect(ab.observed).toBeCloseTo(0.75, 10);
    expect(ab.expected).toBeCloseTo(7 / 16, 10);
    expect(ab.kappa).toBeCloseTo((0.75 - 7 / 16) / (1 - 7 / 16), 10);
    expect(cohenKappa(b, a).kappa).toBeCloseTo(ab.kappa ?? Number.NaN, 10);
  });

  it('is undefined (null) when chance agreement is 1, and with no pairs', () => {
    expect(cohenKappa(['a', 'a'], ['a', 'a']).kappa).toBeNull();
    expect(cohenKappa([null], ['a']).kappa).toBeNull();
    expect(() => cohenKappa(['a'], [])).toThrow(/equal lengths/);
  });
});

describe("Fleiss' kappa against the published worked example", () => {
  // Source: Wikipedia, "Fleiss' kappa", section "Worked example": 10 subjects, 14 raters,
  // 5 categories; p_j = 0.143, 0.200, 0.279, 0.150, 0.229; P̄ = 0.378, P̄e = 0.213, κ = 0.210.
  const table = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('gives κ = 0.210 with the published intermediate values', () => {
    const result = fleissKappa(table);
    expect(result.subjects).toBe(10);
    expect(result.raters).toBe(14);
    expect(result.categoryProportions.map((p) => Number(p.toFixed(3)))).toEqual([
      0.143, 0.2, 0.279, 0.15, 0.229,
    ]);
    expect(result.subjectAgreement.map((p) => Number(p.toFixed(3)))).toEqual([
      1, 0.253, 0.308, 0.44, 0.33, 0.462, 0.242, 0.176, 0.286, 0.286,
    ]);
    expect(result.observed).toBeCloseTo(0.378, 3);
    expect(result.expected).toBeCloseTo(0.213, 3);
    expect(result.kappa).toBeCloseTo(0.21, 3);
  });

  it('gives the same κ from per-subject label lists', () => {
    const labels = table.map((row) =>
      row.flatMap((count, j) => Array<string>(count).fill(`c${j}`)),
    );
    expect(fleissKappaFromLabels(labels).kappa).toBeCloseTo(0.20993, 5);
  });

  it('equals Cohen-style agreement bounds: 1 when all agree on varied categories', () => {
    expect(
      fleissKappaFromLabels([
        ['a', 'a', 'a'],
        ['b', 'b', 'b'],
      ]).kappa,
    ).toBeCloseTo(1, 10);
  });

  it('refuses subjects with different numbers of ratings', () => {
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toThrow(/3 ratings per subject; subject 2 has 2/);
  });
});
