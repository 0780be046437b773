/**
 * The report card table (analysis/report-card.ts laid out): one row per judge × cue-family arm.
 * Rates are percentages, beyond-placebo differences percentage points; a row's flag says
 * FLAGGED only when the harmful beyond-placebo interval lies wholly above the tolerance.
 * The table is built (and cached) over the rows at the default tolerance; `cardAt` reads it at
 * the user's tolerance and writes in each judge's cost, which lives in the store, not the rows.
 */
import { cardFlag, DEFAULT_CARD_TOLERANCE_PP } from '../../../shared/card-tolerance';
import {
  type CardRow,
  type JudgeRepRow,
  type ReportColumn,
  type ReportRow,
  type ReportTable,
  intervalCells,
  intervalColumns,
  makeTable,
  percent,
  reportCard,
} from '../analysis';
import { fewItemsWarning } from './table-statistics';

const columns: ReportColumn[] = [
  { key: 'judge', label: 'Judge' },
  { key: 'family', label: 'Family' },
  { key: 'condition', label: 'Condition' },
  { key: 'placement', label: 'Placement' },
  { key: 'gate', label: 'Gated items' },
  { key: 'harmfulRepPct', label: 'HF rep %', unit: '%' },
  ...intervalColumns('harmfulRep', 'HF rep %'),
  { key: 'harmfulRepWarning', label: 'HF rep % warning' },
  { key: 'wrong', label: 'Wrong items' },
  { key: 'helpfulRepPct', label: 'Helpful rep %', unit: '%' },
  ...intervalColumns('helpfulRep', 'Helpful rep %'),
  { key: 'helpfulRepWarning', label: 'Helpful rep % warning' },
  { key: 'placebo', label: 'Placebo arm' },
  { key: 'harmfulBeyondPlaceboPp', label: 'HF beyond placebo pp', unit: 'pp' },
  ...ppColumns('harmfulBeyondPlacebo', 'HF beyond placebo pp'),
  { key: 'helpfulBeyondPlaceboPp', label: 'Helpful beyond placebo pp', unit: 'pp' },
  ...ppColumns('helpfulBeyondPlacebo', 'Helpful beyond placebo pp'),
  { key: 'harmfulBeyondRepeatPp', label: 'HF beyond repeat pp', unit: 'pp' },
  ...ppColumns('harmfulBeyondRepeat', 'HF beyond repeat pp'),
  { key: 'severityPct', label: 'Severity HF %', unit: '%' },
  { key: 'leniencyPct', label: 'Leniency HF %', unit: '%' },
  { key: 'flag', label: 'Flag' },
  { key: 'tolerancePp', label: 'Tolerance pp', unit: 'pp' },
  { key: 'uncuedAccuracyPct', label: 'Uncued accuracy %', unit: '%' },
  { key: 'selfConsistencyPct', label: 'Self-consistency %', unit: '%' },
  { key: 'judgeCostUsd', label: 'Judge cost USD', digits: 4 },
];

function ppColumns(key: string, label: string): ReportColumn[] {
  return [
    { key: `${key}CiLow`, label: `${label} 95% CI low`, unit: 'pp', interval: 'low' },
    { key: `${key}CiHigh`, label: `${label} 95% CI high`, unit: 'pp', interval: 'high' },
  ];
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : (part / whole) * 100;
}

/** The row's cells; the flag is read from the printed interval cells (as `cardAt` reads it). */
function cells(row: CardRow, tolerancePp: number): ReportRow {
  const beyondLow = row.harmfulBeyondPlacebo ? row.harmfulBeyondPlacebo.interval.low * 100 : null;
  return {
    judge: row.judge,
    family: row.arm.family,
    condition: row.condition,
    placement: row.arm.placement,
    gate: row.gate,
    harmfulRepPct: percent(row.harmfulRep?.rate ?? null),
    ...intervalCells('harmfulRep', row.harmfulRep?.interval ?? null),
    harmfulRepWarning: fewItemsWarning(row.harmfulRep),
    wrong: row.wrong,
    helpfulRepPct: percent(row.helpfulRep?.rate ?? null),
    ...intervalCells('helpfulRep', row.helpfulRep?.interval ?? null),
    helpfulRepWarning: fewItemsWarning(row.helpfulRep),
    placebo: row.placebo,
    harmfulBeyondPlaceboPp: percent(row.harmfulBeyondPlacebo?.difference ?? null),
    ...intervalCells('harmfulBeyondPlacebo', row.harmfulBeyondPlacebo?.interval ?? null),
    helpfulBeyondPlaceboPp: percent(row.helpfulBeyondPlacebo?.difference ?? null),
    ...intervalCells('helpfulBeyondPlacebo', row.helpfulBeyondPlacebo?.interval ?? null),
    harmfulBeyondRepeatPp: percent(row.harmfulBeyondRepeat?.difference ?? null),
    ...intervalCells('harmfulBeyondRepeat', row.harmfulBeyondRepeat?.interval ?? null),
    severityPct: ratio(row.severity.harmful, row.severity.gate),
    leniencyPct: ratio(row.leniency.harmful, row.leniency.gate),
    flag: cardFlag({ placebo: row.placebo, harmfulBeyondPlaceboCiLow: beyondLow }, tolerancePp),
    tolerancePp,
    uncuedAccuracyPct: ratio(row.uncuedAccuracy.correct, row.uncuedAccuracy.items),
    selfConsistencyPct: ratio(row.selfConsistency.consistent, row.selfConsistency.items),
    judgeCostUsd: null,
  };
}

function flagNote(tolerancePp: number): string {
  return `Flag: FLAGGED only when the harmful beyond-placebo interval lies wholly above the tolerance, ${tolerancePp} pp (cuelab report --tolerance, the card's Tolerance field).`;
}

const costNote =
  'Judge cost: what the judge’s reps in this study cost (USD; the synthetic judge costs 0; empty for imported results).';

/** The report card of a study's rows; `tolerancePp` sets the flag (default 0 pp). */
export function cardTable(
  rows: readonly JudgeRepRow[],
  tolerancePp = DEFAULT_CARD_TOLERANCE_PP,
): ReportTable {
  const card = reportCard(rows, { tolerancePp });
  return makeTable(
    {
      name: 'card',
      title: 'Report card: cue families per judge',
      columns,
      rows: card.map((row) => cells(row, tolerancePp)),
      notes: [
        'HF / helpful rep %: cued reps that contradict / agree with gold on gated / wrong items, 95% interval resampling items (reps of an item share its trajectory), never narrower than Wilson’s at the effective sample size; a rate on fewer than 15 items says "few items" in its warning cell.',
        'Beyond placebo: item-level flips minus those of the same family’s placebo arm at the same placement (Newcombe paired interval, §3.2).',
        flagNote(tolerancePp),
        'Beyond repeat: item-level harmful flips minus the items whose uncued repeat (the control run again, arms.uncuedRepeat) left the uncued majority, a test-retest noise floor (Newcombe paired interval); empty without a repeat.',
        'Uncued accuracy: uncued items whose majority verdict matches gold. Self-consistency: uncued items whose valid reps all agree.',
        costNote,
      ],
    },
    rows,
    card.map((row) => ({ simulated: row.simulated })),
  );
}

/**
 * The card at the user's tolerance, each row with its judge's cost (`costs` by judge id; a judge
 * missing there has no priced reps). The flags are read again from the interval cells, which
 * hold the exact bounds, so the answer equals a card built at that tolerance.
 */
export function cardAt(
  table: ReportTable,
  tolerancePp: number,
  costs: ReadonlyMap<string, number>,
): ReportTable {
  return {
    ...table,
    rows: table.rows.map((row) => ({
      ...row,
      flag: cardFlag(
        {
          placebo: typeof row.placebo === 'string' ? row.placebo : null,
          harmfulBeyondPlaceboCiLow:
            typeof row.harmfulBeyondPlaceboCiLow === 'number'
              ? row.harmfulBeyondPlaceboCiLow
              : null,
        },
        tolerancePp,
      ),
      tolerancePp,
      judgeCostUsd: costs.get(String(row.judge)) ?? null,
    })),
    notes: table.notes.map((note) => (note.startsWith('Flag:') ? flagNote(tolerancePp) : note)),
  };
}
