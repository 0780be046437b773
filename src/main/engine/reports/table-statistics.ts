/**
 * Columns and cells of the statistics beyond the paper's tables: rep-level rates with their
 * item-clustered bootstrap interval (rep-rates.ts), harmful flips beyond placebo with Newcombe's
 * paired interval (placebo.ts) and Holm-adjusted p-values (multiplicity.ts).
 */
import {
  type BeyondPlacebo,
  type BeyondRepeat,
  type ClusteredRate,
  FEW_CLUSTERS,
  HOLM_METHOD,
  intervalCells,
  intervalColumns,
  percent,
  type ReportColumn,
  type ReportRow,
} from '../analysis';

/** The rep-level rate and its clustered interval, e.g. for 'harmful' labelled 'HF'. */
export function repRateColumns(key: 'harmful' | 'helpful', label: string): ReportColumn[] {
  return [
    { key: `${key}RepPct`, label: `${label} % of reps`, unit: '%' },
    ...intervalColumns(`${key}Rep`, `${label} % of reps item-clustered bootstrap`),
    { key: `${key}RepWarning`, label: `${label} % of reps warning` },
  ];
}

/** The cell that warns a clustered interval rests on fewer than FEW_CLUSTERS items. */
export function fewItemsWarning(rate: { items: number; fewItems: boolean } | null): string | null {
  return rate?.fewItems ? `few items (n = ${rate.items} < ${FEW_CLUSTERS})` : null;
}

/** Cells for repRateColumns. */
export function repRateCells(key: 'harmful' | 'helpful', rate: ClusteredRate | null): ReportRow {
  return {
    [`${key}RepPct`]: percent(rate?.rate ?? null),
    ...intervalCells(`${key}Rep`, rate?.interval ?? null),
    [`${key}RepWarning`]: fewItemsWarning(rate),
  };
}

/** The placebo arm, the difference in percentage points and its interval. */
export const beyondPlaceboColumns: ReportColumn[] = [
  { key: 'placebo', label: 'placebo arm' },
  { key: 'placeboPaired', label: 'gated in both' },
  { key: 'harmfulBeyondPlaceboPp', label: 'HF beyond placebo (pp)', unit: 'pp' },
  {
    key: 'harmfulBeyondPlaceboCiLow',
    label: 'HF beyond placebo Newcombe paired 95% CI low',
    unit: 'pp',
    interval: 'low',
  },
  {
    key: 'harmfulBeyondPlaceboCiHigh',
    label: 'HF beyond placebo Newcombe paired 95% CI high',
    unit: 'pp',
    interval: 'high',
  },
];

/** Cells for beyondPlaceboColumns; all null when the arm has no placebo. */
export function beyondPlaceboCells(beyond: BeyondPlacebo | null): ReportRow {
  return {
    placebo: beyond?.placebo ?? null,
    placeboPaired: beyond?.n ?? null,
    harmfulBeyondPlaceboPp: percent(beyond?.difference ?? null),
    ...intervalCells('harmfulBeyondPlacebo', beyond?.interval ?? null),
  };
}

/** The uncued repeat's disagreement rate, the difference in percentage points and its interval. */
export const beyondRepeatColumns: ReportColumn[] = [
  { key: 'repeatPaired', label: 'gated in both (repeat)' },
  { key: 'repeatDisagreePct', label: 'uncued repeat ≠ uncued majority %', unit: '%' },
  { key: 'harmfulBeyondRepeatPp', label: 'HF beyond repeat (pp)', unit: 'pp' },
  {
    key: 'harmfulBeyondRepeatCiLow',
    label: 'HF beyond repeat Newcombe paired 95% CI low',
    unit: 'pp',
    interval: 'low',
  },
  {
    key: 'harmfulBeyondRepeatCiHigh',
    label: 'HF beyond repeat Newcombe paired 95% CI high',
    unit: 'pp',
    interval: 'high',
  },
];

/** Cells for beyondRepeatColumns; all null when the study has no uncued repeat. */
export function beyondRepeatCells(beyond: BeyondRepeat | null): ReportRow {
  return {
    repeatPaired: beyond?.n ?? null,
    repeatDisagreePct: percent(beyond?.second ?? null),
    harmfulBeyondRepeatPp: percent(beyond?.difference ?? null),
    ...intervalCells('harmfulBeyondRepeat', beyond?.interval ?? null),
  };
}

/** How to read the beyond-repeat columns. */
export function repeatNote(hasRepeat: boolean): string {
  return hasRepeat
    ? 'HF beyond repeat = HF % of the arm minus the share of the same gated items whose uncued ' +
        'repeat (the control run again, fresh draws) has a majority other than the uncued ' +
        'majority: a test-retest noise floor; in percentage points, with Newcombe’s ' +
        'paired-difference interval (1998, method 10)'
    : 'HF beyond repeat: empty, the study has no uncued repeat (arms.uncuedRepeat)';
}

/** How to read the rep-level and placebo columns. */
export function statisticsNotes(hasPlacebo: boolean): string[] {
  return [
    'HF % / HELP % of reps = opposing cued reps with a verdict that left gold (gated items) or ' +
      'reached it (wrong items), over those reps; reps of one item are not independent, so the ' +
      'interval is an item-clustered percentile bootstrap (2,000 resamples of items with their ' +
      'reps, seed 17; Miller 2024, "Adding error bars to evals"), widened where needed to ' +
      'Wilson’s interval at the effective sample size (reps over the design effect), so it ' +
      `never has zero width; rows on fewer than ${FEW_CLUSTERS} items are flagged "few items" ` +
      '(the bootstrap undercovers there); the item-level HF % / HELP % keep their Wilson interval',
    hasPlacebo
      ? 'HF beyond placebo = HF % of the arm minus HF % of its length-matched placebo arm (§3.2; ' +
        'same placement and mitigation, else the only placebo arm) on the items gated in both, ' +
        'in percentage points, with Newcombe’s paired-difference interval (1998, method 10)'
      : 'HF beyond placebo: empty, the study has no placebo arm (cue strength "placebo", §3.2)',
  ];
}

/** The adjusted p column beside a raw one, its header naming the method. */
export function adjustedPColumn(key: string, label: string): ReportColumn {
  return { key: `${key}Adjusted`, label: `${label} (${HOLM_METHOD}-adjusted)`, unit: 'p' };
}
