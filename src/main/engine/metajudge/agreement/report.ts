/**
 * App. P's validation of mechanism attribution, as pure functions over labelled cases: agreement
 * among human annotators (pairwise Cohen's κ, Fleiss' κ, % unanimous), a gold label from their
 * majority ("a 2-of-3 majority existed for every example"), and each classifier (every voter,
 * the ensemble, the trajectory diff) against that gold (accuracy and κ) and against each
 * annotator (Table 10's A1–A3 columns), overall and per dataset.
 *
 * Gold can instead be one source's labels (e.g. `truth`, the synthetic judge's true mechanism).
 * A classifier's `invalid` label counts as a label that matches no gold.
 */
import { cohenKappa, fleissKappaFromLabels } from './kappa';

/** One labelled flip: its dataset and its label from each source that labelled it. */
export interface LabelledCase {
  repId: string;
  dataset: string;
  /** source → label, e.g. { 'human:ann': 'over_trust', ensemble: 'hallucination' }. */
  labels: Readonly<Record<string, string>>;
}

/** Which sources are raters, which are classifiers, and where gold comes from. */
export interface AgreementOptions {
  /** Human annotator sources, e.g. ['human:A1', 'human:A2', 'human:A3']. */
  raters: readonly string[];
  /** Sources scored against gold, e.g. ['voter:opus', 'ensemble', 'diff']. */
  classifiers: readonly string[];
  /** Gold is this source's label instead of the raters' majority. */
  goldSource?: string;
  /** Votes a majority gold label needs; default a strict majority of the raters (2 of 3). */
  goldMinimum?: number;
}

/** A classifier scored against gold and each rater. */
export interface ClassifierScore {
  source: string;
  /** Cases with both gold and this classifier's label. */
  n: number;
  correct: number;
  accuracy: number | null;
  kappa: number | null;
  /** κ against each rater (Table 10, "Individual annotator"). */
  perRater: Record<string, number | null>;
}

/** Agreement over one set of cases. */
export interface AgreementSummary {
  cases: number;
  /** Cohen's κ for every pair of raters. */
  pairwise: { first: string; second: string; kappa: number | null; n: number }[];
  /** Over the cases every rater labelled. */
  fleiss: number | null;
  /** Share of the cases every rater labelled on which they all agree. */
  unanimous: number | null;
  /** Cases every rater labelled. */
  fullyRated: number;
  /** Cases with a gold label. */
  gold: number;
  goldDistribution: Record<string, number>;
  classifiers: ClassifierScore[];
}

/** Share of subjects whose labels are all the same; null with no subject. */
export function percentUnanimous(subjects: readonly (readonly string[])[]): number | null {
  if (subjects.length === 0) return null;
  const unanimous = subjects.filter((labels) => new Set(labels).size === 1).length;
  return unanimous / subjects.length;
}

/** The label at least `minimum` of `labels` share (the most common on a tie of two such); or null. */
export function majorityLabel(labels: readonly string[], minimum: number): string | null {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top || top[1] < minimum || (next && next[1] === top[1])) return null;
  return top[0];
}

/** Accuracy and κ of predictions against gold, position by position (nulls skipped). */
export function scoreAgainst(
  gold: readonly (string | null)[],
  predicted: readonly (string | null)[],
): { n: number; correct: number; accuracy: number | null; kappa: number | null } {
  const result = cohenKappa(gold, predicted);
  const correct = gold.filter(
    (value, index) => value !== null && predicted[index] !== null && predicted[index] === value,
  ).length;
  return {
    n: result.n,
    correct,
    accuracy: result.n ? correct / result.n : null,
    kappa: result.kappa,
  };
}

/** Agreement over one set of cases. */
export function agreementSummary(
  cases: readonly LabelledCase[],
  options: AgreementOptions,
): AgreementSummary {
  const { raters, classifiers } = options;
  const label = (entry: LabelledCase, source: string) => entry.labels[source] ?? null;
  const pairwise: AgreementSummary['pairwise'] = [];
  raters.forEach((first, index) => {
    for (const second of raters.slice(index + 1)) {
      const result = cohenKappa(
        cases.map((entry) => label(entry, first)),
        cases.map((entry) => label(entry, second)),
      );
      pairwise.push({ first, second, kappa: result.kappa, n: result.n });
    }
  });
  const complete = cases
    .map((entry) => raters.map((rater) => label(entry, rater)))
    .filter((labels): labels is string[] => labels.every((value) => value !== null));
  const minimum = options.goldMinimum ?? Math.floor(raters.length / 2) + 1;
  const gold = cases.map((entry) =>
    options.goldSource !== undefined
      ? label(entry, options.goldSource)
      : majorityLabel(
          raters.flatMap((rater) => label(entry, rater) ?? []),
          minimum,
        ),
  );
  const goldDistribution: Record<string, number> = {};
  for (const value of gold)
    if (value !== null) goldDistribution[value] = (goldDistribution[value] ?? 0) + 1;
  return {
    cases: cases.length,
    pairwise,
    fleiss:
      raters.length >= 2 && complete.length > 0 ? fleissKappaFromLabels(complete).kappa : null,
    unanimous: raters.length >= 2 ? percentUnanimous(complete) : null,
    fullyRated: raters.length > 0 ? complete.length : 0,
    gold: gold.filter((value) => value !== null).length,
    goldDistribution,
    classifiers: classifiers.map((source) => {
      const predicted = cases.map((entry) => label(entry, source));
      const perRater = Object.fromEntries(
        raters.map((rater) => [
          rater,
          cohenKappa(
            cases.map((entry) => label(entry, rater)),
            predicted,
          ).kappa,
        ]),
      );
      return { source, ...scoreAgainst(gold, predicted), perRater };
    }),
  };
}

/** Agreement overall and per dataset (App. P reports both). */
export interface AgreementReport {
  overall: AgreementSummary;
  byDataset: { dataset: string; summary: AgreementSummary }[];
}

/** Agreement overall and for each dataset, datasets in name order. */
export function agreementReport(
  cases: readonly LabelledCase[],
  options: AgreementOptions,
): AgreementReport {
  const datasets = [...new Set(cases.map((entry) => entry.dataset))].sort();
  return {
    overall: agreementSummary(cases, options),
    byDataset: datasets.map((dataset) => ({
      dataset,
      summary: agreementSummary(
        cases.filter((entry) => entry.dataset === dataset),
        options,
      ),
    })),
  };
}
