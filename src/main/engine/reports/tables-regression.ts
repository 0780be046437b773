/**
 * The regression table for factorial ablations (analysis/flip-regression.ts): per dimension, the
 * odds ratio of a harmful flip for every level of every factor against its reference level, the
 * other factors held fixed, with item-clustered 95% intervals, and a cell saying why a row has
 * no estimate or should be read with care.
 */
import {
  FEW_CLUSTERS,
  flipRegressions,
  makeTable,
  whyNoPairs,
  type JudgeRepRow,
  type ReportRow,
  type ReportTable,
} from '../analysis';

/** The factorial-ablation regression: odds ratios of a harmful flip per factor level. */
export function regressionTable(rows: readonly JudgeRepRow[]): ReportTable {
  const models = flipRegressions(rows);
  const out: ReportRow[] = [];
  const notes = [
    'logistic regression of a harmful flip on every factor with two or more levels (cue axes or ' +
      'cue, placement, mitigation, direction, judge, dataset), one model per dimension; one ' +
      'observation = one opposing cued rep of a gated item, flipped when its verdict is not gold',
    'OR = odds ratio of a flip at this level against the factor’s reference level (its level ' +
      'with the most reps, OR 1), the other factors held fixed; 95% Wald interval and p with ' +
      'item-clustered sandwich errors (CR1, G / (G − 1)), since reps of one item are not ' +
      'independent',
    `a level whose reps all flipped or none did has no finite OR (separation) and leaves the fit; ` +
      `below ${FEW_CLUSTERS} items every row is flagged "few items" (the clustered errors ` +
      'under-cover); an aliased level (only ever seen with another) is not estimable',
  ];
  for (const model of models) {
    if (model.dropped.length > 0)
      notes.push(
        `${model.dimension}: constant, so not in the model: ${model.dropped
          .map((factor, index) => `${factor} (${model.droppedLevels[index] ?? ''})`)
          .join(', ')}`,
      );
    for (const problem of model.problems) notes.push(`${model.dimension}: ${problem}`);
    for (const term of model.terms)
      out.push({
        dimension: term.dimension,
        factor: term.factor,
        level: term.level,
        reference: term.isReference ? 'reference' : term.reference,
        reps: term.reps,
        flips: term.flips,
        flipPct: term.reps === 0 ? null : (100 * term.flips) / term.reps,
        items: term.items,
        oddsRatio: term.oddsRatio,
        oddsRatioCiLow: term.oddsRatioCi?.low ?? null,
        oddsRatioCiHigh: term.oddsRatioCi?.high ?? null,
        pValue: term.pValue,
        warning: term.warning,
      });
  }
  if (models.length === 0) notes.push(whyNoPairs(rows) ?? 'no opposing cued rep of a gated item');
  else if (out.length === 0)
    notes.push(
      'every factor has a single level: nothing to compare (a factorial study varies some)',
    );
  return makeTable(
    {
      name: 'regression',
      title: 'Harmful flips regressed on the study’s factors (odds ratios, item-clustered)',
      columns: [
        { key: 'dimension', label: 'Dimension' },
        { key: 'factor', label: 'Factor' },
        { key: 'level', label: 'Level' },
        { key: 'reference', label: 'Against' },
        { key: 'reps', label: 'n reps' },
        { key: 'flips', label: '#HF' },
        { key: 'flipPct', label: 'HF % of reps', unit: '%' },
        { key: 'items', label: 'items' },
        { key: 'oddsRatio', label: 'OR', digits: 2 },
        { key: 'oddsRatioCiLow', label: 'OR 95% CI low', digits: 2, interval: 'low' },
        { key: 'oddsRatioCiHigh', label: 'OR 95% CI high', digits: 2, interval: 'high' },
        { key: 'pValue', label: 'p', unit: 'p' },
        { key: 'warning', label: 'warning' },
      ],
      rows: out,
      notes,
    },
    rows,
    models,
  );
}
