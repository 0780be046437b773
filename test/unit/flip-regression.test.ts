/**
 * The factorial-ablation regression against worked examples computed here in other ways:
 *
 * - one binary covariate, each rep its own item: the odds ratio is the 2×2 cross-product ratio
 *   a·d / (b·c), and the CR1 error of its log is sqrt((1/a + 1/b + 1/c + 1/d) · G / (G − 1));
 * - one binary covariate with items of several reps: the clustered error from the delta method on
 *   the two group proportions, summed over items by hand;
 * - two binary factors: the maximum-likelihood fit by iterative proportional fitting of the
 *   2 × 2 × 2 table (the no-three-way-interaction log-linear model is this logistic model), and
 *   the sandwich from per-item scores with a 3 × 3 Gauss–Jordan inverse written in this file.
 *
 * Then the report's honesty: separation, few items and constant factors.
 */
import { describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis';
import { flipRegressions } from '../../src/main/engine/analysis/flip-regression';
import { fitLogistic } from '../../src/main/engine/analysis/logistic';
import { regressionTable } from '../../src/main/engine/reports/tables-regression';
import { TABLES } from '../../src/main/engine/reports/tables';
import { studyReportTableSchema } from '../../src/shared/lab-api/reports';

describe('fitLogistic: closed forms', () => {
  it('one binary covariate: OR = ad/bc and the CR1 error of log OR', () => {
    // x = 1: a = 12 flipped, b = 18 not; x = 0: c = 5 flipped, d = 25 not.
    const cells: [number, 0 | 1, number][] = [
      [1, 1, 12],
      [1, 0, 18],
      [0, 1, 5],
      [0, 0, 25],
    ];
    const x: number[][] = [];
    const y: (0 | 1)[] = [];
    for (const [covariate, outcome, count] of cells)
      for (let index = 0; index < count; index += 1) {
        x.push([1, covariate]);
        y.push(outcome);
      }
    const fit = fitLogistic({ x, y, cluster: y.map((_, index) => `item${index}`) });
    expect(fit.converged).toBe(true);
    expect(Math.exp(fit.coefficients[1] as number)).toBeCloseTo((12 * 25) / (18 * 5), 10);
    const g = 60;
    const expected = Math.sqrt((1 / 12 + 1 / 18 + 1 / 5 + 1 / 25) * (g / (g - 1)));
    expect(fit.clusteredSe[1]).toBeCloseTo(expected, 10);
    expect(fit.modelSe[1]).toBeCloseTo(Math.sqrt(1 / 12 + 1 / 18 + 1 / 5 + 1 / 25), 10);
  });

  it('one binary covariate, clustered reps: the delta-method error summed over items', () => {
    // 16 items, 3 reps each; items alternate between the levels, and four items have reps at both.
    const x: number[][] = [];
    const y: (0 | 1)[] = [];
    const cluster: string[] = [];
    for (let item = 0; item < 16; item += 1)
      for (let rep = 0; rep < 3; rep += 1) {
        const level = item < 4 ? rep % 2 : item % 2;
        const flipped = (item * 7 + rep * 3 + level * 5) % 4 === 0 ? 1 : 0;
        x.push([1, level]);
        y.push(flipped);
        cluster.push(`i${item}`);
      }
    const fit = fitLogistic({ x, y, cluster });
    const rate = (level: number) => {
      const at = x.map((row, index) => (row[1] === level ? index : -1)).filter((i) => i >= 0);
      const events = at.reduce((sum, index) => sum + (y[index] as number), 0);
      return { n: at.length, p: events / at.length };
    };
    const zero = rate(0);
    const one = rate(1);
    const logit = (p: number) => Math.log(p / (1 - p));
    expect(fit.coefficients[1]).toBeCloseTo(logit(one.p) - logit(zero.p), 9);
    // Influence of item g on logit p̂_j: Σ_{i in g, x = j} (y − p_j) / (n_j p_j (1 − p_j)).
    const influence = new Map<string, number>();
    x.forEach((row, index) => {
      const group = row[1] === 1 ? one : zero;
      const sign = row[1] === 1 ? 1 : -1;
      const term = (sign * ((y[index] as number) - group.p)) / (group.n * group.p * (1 - group.p));
      influence.set(
        cluster[index] as string,
        (influence.get(cluster[index] as string) ?? 0) + term,
      );
    });
    const items = influence.size;
    const variance =
      ([...influence.values()].reduce((sum, value) => sum + value * value, 0) * items) /
      (items - 1);
    expect(fit.clusteredSe[1]).toBeCloseTo(Math.sqrt(variance), 9);
  });
});

/** A small dataset of two binary factors A and B, reps clustered in items. */
function twoFactorData() {
  const rows: { a: number; b: number; y: 0 | 1; item: string }[] = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let item = 0; item < 40; item += 1) {
    const frailty = next() < 0.3 ? 1.2 : -0.4;
    for (let rep = 0; rep < 3; rep += 1) {
      const a = (item + rep) % 2;
      const b = item % 3 === 0 ? 1 : 0;
      const eta = -1 + 0.9 * a - 0.7 * b + frailty;
      rows.push({ a, b, y: next() < 1 / (1 + Math.exp(-eta)) ? 1 : 0, item: `i${item}` });
    }
  }
  return rows;
}

/** The MLE of logit P(y) = β0 + β1·a + β2·b by IPF on the 2 × 2 × 2 table of counts. */
function ipfFit(rows: ReturnType<typeof twoFactorData>): [number, number, number] {
  const observed = (a: number, b: number, y: number) =>
    rows.filter((row) => row.a === a && row.b === b && row.y === y).length;
  let fitted = [0, 1].map(() => [0, 1].map(() => [1, 1]));
  const margins = [
    // [AB]: fixes the design; [AY] and [BY]: the sufficient statistics of β1 and β2.
    (a: number, b: number, y: number) => [`ab${a}${b}`, a, b, y] as const,
    (a: number, b: number, y: number) => [`ay${a}${y}`, a, b, y] as const,
    (a: number, b: number, y: number) => [`by${b}${y}`, a, b, y] as const,
  ];
  for (let round = 0; round < 2000; round += 1) {
    for (const margin of margins) {
      const target = new Map<string, number>();
      const current = new Map<string, number>();
      for (const a of [0, 1])
        for (const b of [0, 1])
          for (const y of [0, 1]) {
            const [key] = margin(a, b, y);
            target.set(key, (target.get(key) ?? 0) + observed(a, b, y));
            current.set(key, (current.get(key) ?? 0) + (fitted[a]?.[b]?.[y] as number));
          }
      fitted = [0, 1].map((a) =>
        [0, 1].map((b) =>
          [0, 1].map((y) => {
            const [key] = margin(a, b, y);
            return (
              ((fitted[a]?.[b]?.[y] as number) * (target.get(key) as number)) /
              (current.get(key) as number)
            );
          }),
        ),
      );
    }
  }
  const logOdds = (a: number, b: number) =>
    Math.log((fitted[a]?.[b]?.[1] as number) / (fitted[a]?.[b]?.[0] as number));
  return [logOdds(0, 0), logOdds(1, 0) - logOdds(0, 0), logOdds(0, 1) - logOdds(0, 0)];
}

/** Inverse by Gauss–Jordan elimination with partial pivoting. */
function gaussJordanInverse(matrix: number[][]): number[][] {
  const size = matrix.length;
  const work = matrix.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < size; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < size; r += 1)
      if (Math.abs(work[r]![col]!) > Math.abs(work[pivot]![col]!)) pivot = r;
    [work[col], work[pivot]] = [work[pivot]!, work[col]!];
    const head = work[col]![col]!;
    work[col] = work[col]!.map((value) => value / head);
    for (let r = 0; r < size; r += 1) {
      if (r === col) continue;
      const factor = work[r]![col]!;
      work[r] = work[r]!.map((value, j) => value - factor * work[col]![j]!);
    }
  }
  return work.map((row) => row.slice(size));
}

describe('fitLogistic: two factors against an independent fit', () => {
  it('matches IPF and a hand-built sandwich', () => {
    const data = twoFactorData();
    const fit = fitLogistic({
      x: data.map((row) => [1, row.a, row.b]),
      y: data.map((row) => row.y),
      cluster: data.map((row) => row.item),
    });
    const reference = ipfFit(data);
    reference.forEach((value, index) => expect(fit.coefficients[index]).toBeCloseTo(value, 6));
    const p = data.map(
      (row) => 1 / (1 + Math.exp(-(reference[0] + reference[1] * row.a + reference[2] * row.b))),
    );
    const bread = [0, 1, 2].map(() => [0, 0, 0]);
    const scores = new Map<string, number[]>();
    data.forEach((row, index) => {
      const v = [1, row.a, row.b];
      const pi = p[index] as number;
      for (let i = 0; i < 3; i += 1)
        for (let j = 0; j < 3; j += 1) bread[i]![j]! += v[i]! * v[j]! * pi * (1 - pi);
      const score = scores.get(row.item) ?? [0, 0, 0];
      for (let i = 0; i < 3; i += 1) score[i]! += v[i]! * (row.y - pi);
      scores.set(row.item, score);
    });
    const inverse = gaussJordanInverse(bread);
    const meat = [0, 1, 2].map((i) =>
      [0, 1, 2].map((j) => [...scores.values()].reduce((sum, s) => sum + s[i]! * s[j]!, 0)),
    );
    const g = scores.size;
    for (let k = 0; k < 3; k += 1) {
      let variance = 0;
      for (let i = 0; i < 3; i += 1)
        for (let j = 0; j < 3; j += 1) variance += inverse[k]![i]! * meat[i]![j]! * inverse[j]![k]!;
      expect(fit.clusteredSe[k]).toBeCloseTo(Math.sqrt((variance * g) / (g - 1)), 6);
      expect(fit.modelSe[k]).toBeCloseTo(Math.sqrt(inverse[k]![k]!), 6);
    }
  });

  it('drops an aliased column and flags separation', () => {
    const x = [
      [1, 1, 1],
      [1, 0, 0],
      [1, 1, 1],
      [1, 0, 0],
      [1, 1, 1],
      [1, 0, 0],
    ];
    const aliased = fitLogistic({
      x,
      y: [1, 0, 0, 1, 1, 0],
      cluster: ['a', 'b', 'c', 'd', 'e', 'f'],
    });
    expect(aliased.kept).toEqual([0, 1]);
    const separated = fitLogistic({
      x: x.map((row) => row.slice(0, 2)),
      y: [1, 0, 1, 0, 1, 0],
      cluster: ['a', 'b', 'c', 'd', 'e', 'f'],
    });
    expect(separated.separated).toBe(true);
  });
});

/** Reps of one item: an uncued arm at gold and a cued arm with the given verdicts. */
function item(
  id: string,
  condition: string,
  cued: readonly BinaryVerdict[],
  overrides: Partial<JudgeRepRow> = {},
): JudgeRepRow[] {
  const base = {
    itemId: id,
    dataset: 'd',
    judge: 'j',
    score: null,
    gold: 'pass' as const,
    dimension: 'task_success',
    turns: null,
    simulated: false,
    ...overrides,
  };
  return [
    ...[0, 1, 2].map((rep) => ({
      ...base,
      condition: 'uncued',
      cueDirection: null,
      rep,
      verdict: 'pass' as const,
    })),
    ...cued.map((verdict, rep) => ({
      ...base,
      condition,
      cueDirection: 'severity' as const,
      rep,
      verdict,
    })),
  ];
}

describe('flipRegressions on study rows', () => {
  it('reads axes from condition keys, reproduces the cross-product ratio and drops constant factors', () => {
    // 20 items; strong cue: 2 of 3 reps flip on items 0-9 and 1 of 3 on 10-19; weak: 1 of 3 and 0 of 3.
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 20; index += 1) {
      const high = index < 10;
      rows.push(
        ...item(
          `i${index}`,
          'axes:strength=strong@system',
          high ? ['fail', 'fail', 'pass'] : ['fail', 'pass', 'pass'],
        ),
      );
      rows.push(
        ...item(
          `i${index}`,
          'axes:strength=weak@system',
          high ? ['fail', 'pass', 'pass'] : ['pass', 'pass', 'pass'],
        ).filter((row) => row.condition !== 'uncued'),
      );
    }
    const [model] = flipRegressions(rows);
    expect(model?.dropped).toEqual(
      expect.arrayContaining(['framing', 'form', 'source', 'decisiveness', 'placement', 'judge']),
    );
    const weak = model?.terms.find((term) => term.factor === 'strength' && term.level === 'weak');
    // strong: 30 flipped of 60; weak: 10 of 60. OR(weak vs strong) = (10·30)/(50·30).
    expect(weak?.reference).toBe('strong');
    expect(weak?.oddsRatio).toBeCloseTo((10 * 30) / (50 * 30), 9);
    expect(weak?.oddsRatioCi?.low).toBeLessThan(weak?.oddsRatio as number);
    expect(weak?.warning).toBeNull();
    expect(model?.problems).toEqual([]);
  });

  it('flags separation on a level and few items on every row', () => {
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 6; index += 1) {
      rows.push(
        ...item(`i${index}`, 'axes:strength=strong@system', [
          'fail',
          index % 2 ? 'fail' : 'pass',
          'pass',
        ]),
      );
      rows.push(
        ...item(`i${index}`, 'axes:strength=placebo@system', ['pass', 'pass', 'pass']).slice(3),
      );
      rows.push(
        ...item(`i${index}`, 'axes:strength=weak@system', [
          'pass',
          index % 3 ? 'pass' : 'fail',
          'pass',
        ]).slice(3),
      );
    }
    const [model] = flipRegressions(rows);
    const placebo = model?.terms.find((term) => term.level === 'placebo');
    expect(placebo?.oddsRatio).toBeNull();
    expect(placebo?.warning).toMatch(/separation: no rep flipped/);
    const weak = model?.terms.find((term) => term.level === 'weak');
    expect(weak?.oddsRatio).not.toBeNull();
    expect(weak?.warning).toBe('few items (n = 6 < 15)');
    expect(model?.problems.join(' ')).toMatch(/few items/);
  });

  it('the report table keeps its cells through the contract schema and is marked simulated', () => {
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 20; index += 1) {
      rows.push(
        ...item(
          `i${index}`,
          'preset:strong@system',
          index % 2 ? ['fail', 'pass', 'pass'] : ['fail', 'fail', 'pass'],
          {
            simulated: true,
          },
        ),
      );
      rows.push(
        ...item(
          `i${index}`,
          'preset:strong@user',
          index % 3 ? ['pass', 'pass', 'pass'] : ['fail', 'pass', 'pass'],
          {
            simulated: true,
          },
        ).slice(3),
      );
    }
    const table = regressionTable(rows);
    expect(table.simulated).toBe(true);
    expect(table.notes[0]).toMatch(/^SIMULATED/);
    const rowsWithMark = table.rows.map((row) => ({
      ...row,
      pooled: TABLES.regression.pooled(row),
    }));
    const parsed = studyReportTableSchema.parse({ ...table, rows: rowsWithMark });
    expect(parsed.rows).toEqual(rowsWithMark);
    expect(table.rows.length).toBeGreaterThan(0);
    const user = table.rows.find((row) => row.level === 'user');
    expect(user?.factor).toBe('placement');
    expect(user?.oddsRatio as number).toBeGreaterThan(0);
    expect(user?.oddsRatioCiLow as number).toBeLessThan(user?.oddsRatio as number);
  });
});
