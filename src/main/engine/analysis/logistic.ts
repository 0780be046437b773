/**
 * Logistic regression by Newton–Raphson (IRLS) with item-clustered sandwich standard errors, for
 * the factorial-ablation regression (flip-regression.ts). Reps of one item share its trajectory,
 * so the model-based variance (X'WX)⁻¹ is too small; the cluster-robust ("sandwich") variance
 * A⁻¹ B A⁻¹ with A = X'WX and B = Σ_g u_g u_gᵀ (u_g the score of cluster g, Σ x_i (y_i − p_i))
 * does not assume independence within a cluster. It is scaled by G / (G − 1) (the CR1 small-sample
 * factor Stata applies to maximum-likelihood models; Cameron & Miller 2015, §VI), and still
 * under-covers with few clusters, which the caller flags.
 *
 * Columns that are linear combinations of earlier ones (a factor level that only ever occurs with
 * another) are dropped before fitting and reported as aliased. Separation (a level whose reps all
 * flip or none do) has no finite MLE: Newton walks a coefficient off to infinity; the fit stops
 * and says so instead of printing a huge odds ratio as if it were an estimate.
 */

/** The data of one fit: a design matrix by rows, 0/1 outcomes and each row's cluster. */
export interface LogisticData {
  /** One row per observation; every row has the same length (the intercept is a column of 1s). */
  readonly x: readonly (readonly number[])[];
  readonly y: readonly (0 | 1)[];
  /** The cluster (item) of each row. */
  readonly cluster: readonly string[];
}

/** A fitted model. Vectors and matrices are over the kept columns (`kept`). */
export interface LogisticFit {
  /** Indices of the design's columns that were fitted (the others were aliased). */
  readonly kept: readonly number[];
  readonly coefficients: readonly number[];
  /** Model-based standard errors, sqrt(diag((X'WX)⁻¹)). */
  readonly modelSe: readonly number[];
  /** Item-clustered CR1 sandwich standard errors. */
  readonly clusteredSe: readonly number[];
  readonly clusters: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** True when the fit ran off toward infinity (complete or quasi-complete separation). */
  readonly separated: boolean;
}

const MAX_ITERATIONS = 50;
/** A coefficient beyond this (an odds ratio past e^15 ≈ 3·10^6) means the MLE is not finite. */
const DIVERGED = 15;

/** Lower-triangular Cholesky factor of a symmetric positive-definite matrix; null if it is not. */
function cholesky(matrix: readonly (readonly number[])[]): number[][] | null {
  const size = matrix.length;
  const factor = matrix.map(() => new Array<number>(size).fill(0));
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = (matrix[i] as number[])[j] as number;
      for (let k = 0; k < j; k += 1)
        sum -= ((factor[i] as number[])[k] as number) * ((factor[j] as number[])[k] as number);
      if (i === j) {
        if (!(sum > 0)) return null;
        (factor[i] as number[])[i] = Math.sqrt(sum);
      } else (factor[i] as number[])[j] = sum / ((factor[j] as number[])[j] as number);
    }
  }
  return factor;
}

/** The inverse of a symmetric positive-definite matrix by its Cholesky factor; null if singular. */
export function invertSymmetric(matrix: readonly (readonly number[])[]): number[][] | null {
  const factor = cholesky(matrix);
  if (!factor) return null;
  const size = matrix.length;
  const inverse: number[][] = [];
  for (let column = 0; column < size; column += 1) {
    // Solve L z = e_column, then Lᵀ w = z.
    const z = new Array<number>(size).fill(0);
    for (let i = 0; i < size; i += 1) {
      let sum = i === column ? 1 : 0;
      for (let k = 0; k < i; k += 1)
        sum -= ((factor[i] as number[])[k] as number) * (z[k] as number);
      z[i] = sum / ((factor[i] as number[])[i] as number);
    }
    const w = new Array<number>(size).fill(0);
    for (let i = size - 1; i >= 0; i -= 1) {
      let sum = z[i] as number;
      for (let k = i + 1; k < size; k += 1)
        sum -= ((factor[k] as number[])[i] as number) * (w[k] as number);
      w[i] = sum / ((factor[i] as number[])[i] as number);
    }
    inverse.push(w);
  }
  return inverse;
}

/**
 * The columns to fit: each column in order is kept unless it is (numerically) a linear
 * combination of the columns kept before it, found as a vanishing pivot of X'X's Cholesky.
 */
export function independentColumns(x: readonly (readonly number[])[]): number[] {
  const width = x[0]?.length ?? 0;
  const gram = crossProduct(x, null, [...Array(width).keys()]);
  const kept: number[] = [];
  for (let column = 0; column < width; column += 1) {
    const trial = [...kept, column];
    const sub = trial.map((i) => trial.map((j) => (gram[i] as number[])[j] as number));
    const factor = cholesky(sub);
    const pivot = factor ? ((factor[trial.length - 1] as number[])[trial.length - 1] as number) : 0;
    const scale = Math.sqrt((gram[column] as number[])[column] as number);
    if (factor && pivot > 1e-7 * Math.max(1, scale)) kept.push(column);
  }
  return kept;
}

/** X'WX over the chosen columns (W = 1 when `weights` is null). */
function crossProduct(
  x: readonly (readonly number[])[],
  weights: readonly number[] | null,
  columns: readonly number[],
): number[][] {
  const size = columns.length;
  const out = columns.map(() => new Array<number>(size).fill(0));
  x.forEach((row, index) => {
    const weight = weights ? (weights[index] as number) : 1;
    if (weight === 0) return;
    for (let i = 0; i < size; i += 1) {
      const xi = (row[columns[i] as number] as number) * weight;
      if (xi === 0) continue;
      const line = out[i] as number[];
      for (let j = 0; j <= i; j += 1)
        line[j] = (line[j] as number) + xi * (row[columns[j] as number] as number);
    }
  });
  for (let i = 0; i < size; i += 1)
    for (let j = i + 1; j < size; j += 1)
      (out[i] as number[])[j] = (out[j] as number[])[i] as number;
  return out;
}

function logistic(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}

/** Fits y ~ x by maximum likelihood and returns model-based and item-clustered errors. */
export function fitLogistic(data: LogisticData): LogisticFit {
  const { x, y, cluster } = data;
  if (x.length === 0) throw new RangeError('fitLogistic needs at least one observation.');
  if (y.length !== x.length || cluster.length !== x.length)
    throw new RangeError('fitLogistic needs one outcome and one cluster per row.');
  const kept = independentColumns(x);
  const size = kept.length;
  let beta = new Array<number>(size).fill(0);
  let iterations = 0;
  let converged = false;
  let separated = false;
  let information: number[][] | null = null;
  const predict = (coefficients: readonly number[]) =>
    x.map((row) =>
      logistic(
        kept.reduce(
          (sum, column, i) => sum + (row[column] as number) * (coefficients[i] as number),
          0,
        ),
      ),
    );
  while (iterations < MAX_ITERATIONS) {
    iterations += 1;
    const p = predict(beta);
    const weights = p.map((value) => value * (1 - value));
    information = invertSymmetric(crossProduct(x, weights, kept));
    if (!information) {
      separated = true;
      break;
    }
    const score = new Array<number>(size).fill(0);
    x.forEach((row, index) => {
      const residual = (y[index] as number) - (p[index] as number);
      kept.forEach(
        (column, i) => (score[i] = (score[i] as number) + (row[column] as number) * residual),
      );
    });
    const step = information.map((line) =>
      line.reduce((sum, value, j) => sum + value * (score[j] as number), 0),
    );
    beta = beta.map((value, i) => value + (step[i] as number));
    if (beta.some((value) => Math.abs(value) > DIVERGED)) {
      separated = true;
      break;
    }
    if (step.every((value) => Math.abs(value) < 1e-10)) {
      converged = true;
      break;
    }
  }
  const p = predict(beta);
  const inverse = invertSymmetric(
    crossProduct(
      x,
      p.map((value) => value * (1 - value)),
      kept,
    ),
  );
  const scores = new Map<string, number[]>();
  x.forEach((row, index) => {
    const residual = (y[index] as number) - (p[index] as number);
    const key = cluster[index] as string;
    const sum = scores.get(key) ?? new Array<number>(size).fill(0);
    kept.forEach((column, i) => (sum[i] = (sum[i] as number) + (row[column] as number) * residual));
    scores.set(key, sum);
  });
  const groups = scores.size;
  const meat = kept.map(() => new Array<number>(size).fill(0));
  for (const score of scores.values())
    for (let i = 0; i < size; i += 1)
      for (let j = 0; j < size; j += 1)
        (meat[i] as number[])[j] =
          ((meat[i] as number[])[j] as number) + (score[i] as number) * (score[j] as number);
  const correction = groups > 1 ? groups / (groups - 1) : Number.NaN;
  const sandwichDiagonal = kept.map((_, i) => {
    if (!inverse) return Number.NaN;
    let sum = 0;
    for (let a = 0; a < size; a += 1)
      for (let b = 0; b < size; b += 1)
        sum +=
          ((inverse[i] as number[])[a] as number) *
          ((meat[a] as number[])[b] as number) *
          ((inverse[b] as number[])[i] as number);
    return sum * correction;
  });
  return {
    kept,
    coefficients: beta,
    modelSe: kept.map((_, i) =>
      inverse ? Math.sqrt((inverse[i] as number[])[i] as number) : Number.NaN,
    ),
    clusteredSe: sandwichDiagonal.map((value) => Math.sqrt(Math.max(0, value))),
    clusters: groups,
    iterations,
    converged: converged && !separated,
    separated,
  };
}
