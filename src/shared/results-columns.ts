/**
 * The columns of a results file (`cuelab import-results`, issue 11), for the help text the CLI
 * prints without an engine. The engine's parser (engine/reports/results-parse.ts) holds the same
 * lists; test/unit/results-columns.test.ts keeps the two equal until the parser reads these.
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
