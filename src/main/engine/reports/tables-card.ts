/**
 * The report card table (analysis/report-card.ts laid out): one row per judge × cue-family arm.
 * Rates are percentages, beyond-placebo differences percentage points; a row's flag says
 * FLAGGED only when the harmful beyond-placebo interval lies wholly above the tolerance.
 */
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
  { key: 'uncuedAccuracyPct', label: 'Uncued accuracy %', unit: '%' },
  { key: 'selfConsistencyPct', label: 'Self-consistency %', unit: '%' },
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

function cells(row: CardRow): ReportRow {
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
    flag: row.flagged ? 'FLAGGED' : row.placebo === null ? 'no placebo arm' : '',
    uncuedAccuracyPct: ratio(row.uncuedAccuracy.correct, row.uncuedAccuracy.items),
    selfConsistencyPct: ratio(row.selfConsistency.consistent, row.selfConsistency.items),
  };
}

/** The report card of a study's rows; `tolerancePp` sets the flag (default 0 pp). */
export function cardTable(rows: readonly JudgeRepRow[], tolerancePp = 0): ReportTable {
  const card = reportCard(rows, { tolerancePp });
  return makeTable(
    {
      name: 'card',
      title: 'Report card: cue families per judge',
      columns,
      rows: card.map(cells),
      notes: [
        'HF / helpful rep %: cued reps that contradict / agree with gold on gated / wrong items, 95% interval resampling items (reps of an item share its trajectory), never narrower than Wilson’s at the effective sample size; a rate on fewer than 15 items says "few items" in its warning cell.',
        'Beyond placebo: item-level flips minus those of the same family’s placebo arm at the same placement (Newcombe paired interval, §3.2).',
        'Beyond repeat: item-level harmful flips minus the items whose uncued repeat (the control run again, arms.uncuedRepeat) left the uncued majority, a test-retest noise floor (Newcombe paired interval); empty without a repeat.',
        `Flag: FLAGGED only when the harmful beyond-placebo interval lies wholly above ${tolerancePp} pp.`,
        'Self-consistency: uncued items whose valid reps all agree. Cost per judge: cuelab status.',
      ],
    },
    rows,
    card.map((row) => ({ simulated: row.simulated })),
  );
}
