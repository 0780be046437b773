/**
 * The report tables by name and what each shows: the list `cuelab report --help` prints and the
 * engine builds (engine/reports/tables.ts), kept once so every side names them the same.
 */

/** The tables `cuelab report --table` knows, in the order `--help` lists them. */
export const TABLE_NAMES = [
  'flips',
  'severity',
  'accuracy',
  'ablation',
  'placement',
  'effort',
  'mitigations',
  'graded',
  'mechanisms',
  'mechanisms-helpful',
  'mechanism-validation',
  'agreement',
] as const;

/** One of TABLE_NAMES. */
export type TableName = (typeof TABLE_NAMES)[number];

/** Each table's one-line description, with the paper's table or figure it follows. */
export const TABLE_SUMMARIES: Readonly<Record<TableName, string>> = {
  flips: 'harmful / helpful flips per judge × dataset with 95% CIs (Table 6 layout)',
  severity: 'severity vs leniency harmful flip rates (App. D)',
  accuracy: 'accuracy before, adversarial, untargeted (Table 5)',
  ablation: '% of taxonomy ceiling closed per cue condition (Tables 2–4); binary: HF %',
  placement: 'the ablation metric per cue placement (Table 8)',
  effort: 'harmful flip rate by turns taken, hidden bins, Pearson r (Fig. 3, App. L)',
  mitigations: 'harmful / helpful flip rates before → after each mitigation, McNemar p (Table 1)',
  graded:
    'graded 1–100 flips toward the cue, harmful / helpful against consensus gold, items (App. G)',
  mechanisms:
    'harmful-flip mechanism mixture per judge (Fig. 5, Fig. 17); run cuelab classify first',
  'mechanisms-helpful': 'helpful-flip mechanisms (Fig. 15)',
  'mechanism-validation':
    'diff classifier vs the synthetic judge’s true mechanism: confusion matrix, accuracy',
  agreement: 'annotator and classifier agreement: Cohen’s and Fleiss’ κ, unanimity (Table 10)',
};

/** True for a known table name. */
export function isTableName(name: string): name is TableName {
  return (TABLE_NAMES as readonly string[]).includes(name);
}
