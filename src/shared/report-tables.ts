/**
 * The report tables by name: what each row holds (a zod schema), what the table shows, and
 * whether it moves while reps land. The engine builds the tables (engine/reports/tables.ts) and
 * parses each row with its schema before it leaves (lab-api/reports.ts); the window reads the
 * typed rows, and `cuelab report --help` prints the summaries. Kept once so every side names a
 * table, its cells and its pooled row the same.
 *
 * Every row carries `pooled`: true on the row the table pools (over judges and datasets, over
 * datasets, or over turn bins, as each table says). It is a mark for the window, never a
 * column: no printed format shows it.
 */
import { z } from 'zod';
import { harmfulLabelIds, helpfulLabelIds } from './mechanism-labels';

/** A printed cell: text, a number, or nothing (a rate over zero items). */
export const reportCellSchema = z.union([z.string(), z.number(), z.null()]);

/** A count (reps, items, flips). */
const count = z.number();
/** A percentage, p-value, correlation or shift; null when it is not defined. */
const measure = z.number().nullable();
const text = z.string();
const optionalText = z.string().nullable();

/** A `low` and `high` bound pair, keyed as the engine writes them (`<key>CiLow`, `<key>CiHigh`). */
function interval<Key extends string>(
  key: Key,
): Record<`${Key}CiLow` | `${Key}CiHigh`, typeof measure> {
  return { [`${key}CiLow`]: measure, [`${key}CiHigh`]: measure } as Record<
    `${Key}CiLow` | `${Key}CiHigh`,
    typeof measure
  >;
}

/** The arm and scope cells the paired tables (flips, severity, accuracy, graded) start with. */
const arm = {
  condition: text,
  dimension: text,
  /** judge-dataset, dataset, judge or all (and severity's "judge excl. <dataset>"). */
  scope: text,
  /** A judge id, or `all` on rows pooled over judges. */
  judge: text,
  /** A dataset, or `all` on rows pooled over datasets. */
  dataset: text,
  /** True on the `all` scope row: pooled over judges and datasets. */
  pooled: z.boolean(),
};

/** One direction's cells of the severity table. */
function direction<Prefix extends 'severity' | 'leniency'>(prefix: Prefix) {
  return {
    ...({
      [`${prefix}Gate`]: count,
      [`${prefix}Harmful`]: count,
      [`${prefix}Pct`]: measure,
    } as Record<`${Prefix}Gate` | `${Prefix}Harmful`, typeof count> &
      Record<`${Prefix}Pct`, typeof measure>),
    ...interval(prefix),
  };
}

/** Table 6 layout: harmful and helpful flips per arm, item- and rep-level, beyond placebo. */
const flipsRow = z.object({
  ...arm,
  n: count,
  gate: count,
  harmful: count,
  harmfulPct: measure,
  ...interval('harmful'),
  harmfulRepPct: measure,
  ...interval('harmfulRep'),
  /** 'few items (n < 15)' when the clustered interval rests on fewer than 15 items; else null. */
  harmfulRepWarning: optionalText,
  harmfulGrandMeanPct: measure,
  wrong: count,
  helpful: count,
  helpfulPct: measure,
  ...interval('helpful'),
  helpfulRepPct: measure,
  ...interval('helpfulRep'),
  helpfulRepWarning: optionalText,
  /** The placebo arm the row is set against, when the study has one. */
  placebo: optionalText,
  placeboPaired: measure,
  harmfulBeyondPlaceboPp: measure,
  ...interval('harmfulBeyondPlacebo'),
  /** Items gated in both the arm and the uncued repeat (`arms.uncuedRepeat`); null without one. */
  repeatPaired: measure,
  /** Share of those items whose uncued repeat's majority left the uncued majority. */
  repeatDisagreePct: measure,
  harmfulBeyondRepeatPp: measure,
  ...interval('harmfulBeyondRepeat'),
  undetermined: count,
  excluded: count,
  budgetExhausted: count,
});

/** The report card: one judge × cue-family arm, beyond the family's own placebo. */
const cardRow = z.object({
  judge: text,
  family: text,
  condition: text,
  placement: text,
  gate: count,
  harmfulRepPct: measure,
  ...interval('harmfulRep'),
  /** 'few items (n = k < 15)' when the clustered interval rests on fewer than 15 items. */
  harmfulRepWarning: optionalText,
  wrong: count,
  helpfulRepPct: measure,
  ...interval('helpfulRep'),
  helpfulRepWarning: optionalText,
  placebo: optionalText,
  harmfulBeyondPlaceboPp: measure,
  ...interval('harmfulBeyondPlacebo'),
  helpfulBeyondPlaceboPp: measure,
  ...interval('helpfulBeyondPlacebo'),
  /** Harmful flips beyond the uncued repeat (`arms.uncuedRepeat`); null without one. */
  harmfulBeyondRepeatPp: measure,
  ...interval('harmfulBeyondRepeat'),
  severityPct: measure,
  leniencyPct: measure,
  flag: text,
  /** The tolerance the flag was read at, percentage points. */
  tolerancePp: count,
  uncuedAccuracyPct: measure,
  selfConsistencyPct: measure,
  /** What the judge's reps in this study cost, USD; null when none was priced (imported data). */
  judgeCostUsd: measure,
  pooled: z.boolean(),
});

const severityRow = z.object({
  ...arm,
  ...direction('severity'),
  ...direction('leniency'),
  n: count,
});

const accuracyRow = z.object({
  ...arm,
  n: count,
  beforePct: measure,
  ...interval('before'),
  harmful: count,
  adversarialPct: measure,
  ...interval('adversarial'),
  helpful: count,
  untargetedPct: measure,
  ...interval('untargeted'),
});

/** Ablation and placement: one effect per condition × judge × dataset. */
const effectRow = z.object({
  condition: text,
  cue: optionalText,
  placement: optionalText,
  mitigation: optionalText,
  dimension: text,
  judge: text,
  dataset: text,
  /** Which metric `value` is: % of taxonomy ceiling closed, or the harmful flip rate. */
  metric: text,
  n: count,
  value: measure,
  ...interval('value'),
  excluded: count,
  /** True on rows pooled over datasets (the ones the effect figure draws). */
  pooled: z.boolean(),
});

const effortRow = z.object({
  condition: text,
  dimension: text,
  judge: text,
  /** A turn bin's label, or `all` on the judge's pooled row. */
  turns: text,
  n: count,
  harmful: count,
  harmfulPct: measure,
  ...interval('harmful'),
  /** Items behind the bin's reps (the clusters of its interval). */
  items: count,
  /** 'few items (n < 15)' when the bin's clustered interval rests on fewer than 15 items. */
  warning: optionalText,
  /** `yes`, or `hidden` for a bin with too few reps; null on the pooled row. */
  plotted: optionalText,
  /** Pearson r of turns against flipping, on the pooled row only. */
  pearsonR: measure,
  /** True on the judge's row over every turn bin (n, flips and Pearson r). */
  pooled: z.boolean(),
});

const mitigationsRow = z.object({
  mitigation: text,
  before: text,
  after: text,
  dimension: text,
  scope: text,
  judge: text,
  dataset: text,
  control: text,
  gate: count,
  harmfulBeforePct: measure,
  harmfulAfterPct: measure,
  harmfulP: measure,
  harmfulPAdjusted: measure,
  /** Benjamini–Hochberg-adjusted McNemar p over the same family as Holm's. */
  harmfulPBh: measure,
  /** 'detected', 'no change > X pp' (the realized MDD) or 'underpowered'. */
  harmfulPower: text,
  wrong: count,
  helpfulBeforePct: measure,
  helpfulAfterPct: measure,
  helpfulP: measure,
  helpfulPAdjusted: measure,
  n: count,
  harmfulAfterMitigatedPct: measure,
  helpfulAfterMitigatedPct: measure,
  /** The frontier figure's cells: harm removed (pp) and help kept (% of before). */
  harmfulReductionPp: measure,
  ...interval('harmfulReduction'),
  helpfulRetainedPct: measure,
  ...interval('helpfulRetained'),
  /** How a synthetic row's effect was made (Table 1, hypothesis, not modelled); null when real. */
  simulatedEffect: optionalText,
  /** True on the `all` scope row. */
  pooled: z.boolean(),
});

/** The factorial-ablation regression: one factor level's odds ratio of a harmful flip. */
const regressionRow = z.object({
  dimension: text,
  /** A cue axis (framing, form, source, decisiveness, strength), cue, placement, mitigation, direction, judge or dataset. */
  factor: text,
  level: text,
  /** The factor's reference level the odds ratio is against, or `reference` on that level's own row. */
  reference: text,
  reps: count,
  flips: count,
  flipPct: measure,
  /** Items with a rep at this level. */
  items: count,
  /** Odds ratio against the reference, other factors fixed; null when not estimable. */
  oddsRatio: measure,
  ...interval('oddsRatio'),
  pValue: measure,
  /** Separation, aliasing, or 'few items (n = k < 15)'; null when there is nothing to say. */
  warning: optionalText,
  pooled: z.boolean(),
});

/** App. G graded flips toward the cue, split harmful / helpful against consensus gold; items. */
const gradedRow = z.object({
  ...arm,
  n: count,
  flipped: count,
  flipPct: measure,
  ...interval('flip'),
  gate: count,
  harmful: count,
  harmfulPct: measure,
  ...interval('harmful'),
  wrong: count,
  helpful: count,
  helpfulPct: measure,
  ...interval('helpful'),
  noGold: count,
  reps: count,
  flippedReps: count,
  meanShift: measure,
  threshold: measure,
});

/** Mechanism mixture: the share of each label of the kind, in percent. */
function mechanismRow<Label extends string>(labels: readonly Label[]) {
  return z.object({
    /** Whose labels: a classifier, `truth`, or `voter:<id>` for one ensemble voter. */
    labels: text,
    /** A judge id, or `all` on the row pooled over judges. */
    judge: text,
    dimension: text,
    n: count,
    ...(Object.fromEntries(labels.map((label) => [label, measure])) as Record<
      Label,
      typeof measure
    >),
    other: measure,
    /** True on the row pooled over judges. */
    pooled: z.boolean(),
  });
}

/**
 * Confusion matrix rows: one column per predicted label, so the labels' cells are as many as
 * the classifier used (read them by the table's columns).
 */
const validationRow = z
  .object({
    truth: text,
    n: count,
    recall: measure,
    pooled: z.boolean(),
  })
  .catchall(reportCellSchema);

/** Agreement rows: a `kappa_<annotator>` cell per annotator (read them by the table's columns). */
const agreementRow = z
  .object({
    /** A dataset, or `all` on the row over every dataset. */
    dataset: text,
    classifier: text,
    n: count,
    accuracy: measure,
    kappa: measure,
    /** True on the row over every dataset. */
    pooled: z.boolean(),
  })
  .catchall(reportCellSchema);

/**
 * Every table, in the order `cuelab report --help` lists them: its row, its one-line
 * description with the paper's table or figure it follows, and `live` when the window fetches
 * it again while reps land (the mechanism tables change only when flips are classified).
 */
export const REPORT_TABLES = {
  flips: {
    row: flipsRow,
    summary: 'harmful / helpful flips per judge × dataset with 95% CIs (Table 6 layout)',
    live: true,
  },
  card: {
    row: cardRow,
    summary:
      'report card per judge: each cue family’s harmful / helpful flips beyond its placebo, severity vs leniency, uncued accuracy, self-consistency',
    live: true,
  },
  severity: {
    row: severityRow,
    summary: 'severity vs leniency harmful flip rates (App. D)',
    live: true,
  },
  accuracy: {
    row: accuracyRow,
    summary: 'accuracy before, adversarial, untargeted (Table 5)',
    live: true,
  },
  ablation: {
    row: effectRow,
    summary: '% of taxonomy ceiling closed per cue condition (Tables 2–4); binary: HF %',
    live: true,
  },
  placement: {
    row: effectRow,
    summary: 'the ablation metric per cue placement (Table 8)',
    live: true,
  },
  effort: {
    row: effortRow,
    summary: 'harmful flip rate by turns taken, hidden bins, Pearson r (Fig. 3, App. L)',
    live: true,
  },
  mitigations: {
    row: mitigationsRow,
    summary: 'harmful / helpful flip rates before → after each mitigation, McNemar p (Table 1)',
    live: true,
  },
  regression: {
    row: regressionRow,
    summary:
      'factorial ablation: odds ratios of a harmful flip per cue axis, placement, direction, judge, dataset, item-clustered CIs',
    // A whole-study fit (not an incremental tally): fetched when the study opens or its status moves.
    live: false,
  },
  graded: {
    row: gradedRow,
    summary:
      'graded 1–100 flips toward the cue, harmful / helpful against consensus gold, items (App. G)',
    live: true,
  },
  mechanisms: {
    row: mechanismRow(harmfulLabelIds),
    summary:
      'harmful-flip mechanism mixture per judge (Fig. 5, Fig. 17); run cuelab classify first',
    live: false,
  },
  'mechanisms-helpful': {
    row: mechanismRow(helpfulLabelIds),
    summary: 'helpful-flip mechanisms (Fig. 15)',
    live: false,
  },
  'mechanism-validation': {
    row: validationRow,
    summary: 'diff classifier vs the synthetic judge’s true mechanism: confusion matrix, accuracy',
    live: false,
  },
  agreement: {
    row: agreementRow,
    summary: 'annotator and classifier agreement: Cohen’s and Fleiss’ κ, unanimity (Table 10)',
    live: false,
  },
} as const;

/** A report table's name. */
export type TableName = keyof typeof REPORT_TABLES;

/** The tables `cuelab report --table` knows, in the order `--help` lists them. */
export const TABLE_NAMES = Object.keys(REPORT_TABLES) as TableName[];

/** One row of table N, as the window reads it. */
export type ReportRowOf<N extends TableName> = z.output<(typeof REPORT_TABLES)[N]['row']>;

/** True for a known table name. */
export function isTableName(name: string): name is TableName {
  return Object.prototype.hasOwnProperty.call(REPORT_TABLES, name);
}
