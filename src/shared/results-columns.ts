/**
 * The columns of a results file (`cuelab import-results`): the engine's parser
 * (engine/reports/results-parse.ts) reads these, and the CLI's help lists them without an engine.
 */

/** Columns every results file must have. */
export const requiredResultColumns = ['item_id', 'dataset', 'judge', 'condition', 'rep'] as const;

/** Columns with a meaning (anything else is kept as it is). */
export const knownResultColumns = [
  ...requiredResultColumns,
  'cue_direction',
  'verdict',
  'score',
  'gold',
  'dimension',
  'turns',
  'simulated',
  'placement',
  'mitigation',
  'cue_label',
  'categories_present',
  'taxonomy_size',
] as const;
