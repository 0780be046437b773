/**
 * Two studies' report cards side by side (`cuelab compare --card`, the Compare view): one row per
 * judge × cue-family arm both studies ran, each study's harmful flips beyond the family's
 * placebo with its interval and flag (at the same tolerance), and beside them each judge's
 * uncued accuracy, self-consistency and cost. Judges pair by id; when one judge of each study is
 * left over, those two pair (a rerun with a new model), as the flip-rate comparison pairs them.
 */
import type { ReportColumn, ReportRow, ReportTable } from '../analysis';

const COLUMNS: ReportColumn[] = [
  { key: 'judgeA', label: 'judge A' },
  { key: 'judgeB', label: 'judge B' },
  { key: 'family', label: 'family' },
  { key: 'placement', label: 'placement' },
  { key: 'condition', label: 'condition' },
  { key: 'beyondA', label: 'A HF beyond placebo pp', unit: 'pp' },
  { key: 'beyondACiLow', label: 'A 95% CI low', unit: 'pp', interval: 'low' },
  { key: 'beyondACiHigh', label: 'A 95% CI high', unit: 'pp', interval: 'high' },
  { key: 'flagA', label: 'A flag' },
  { key: 'beyondB', label: 'B HF beyond placebo pp', unit: 'pp' },
  { key: 'beyondBCiLow', label: 'B 95% CI low', unit: 'pp', interval: 'low' },
  { key: 'beyondBCiHigh', label: 'B 95% CI high', unit: 'pp', interval: 'high' },
  { key: 'flagB', label: 'B flag' },
  { key: 'change', label: 'B − A pp', unit: 'pp' },
  { key: 'uncuedAccuracyA', label: 'A uncued accuracy %', unit: '%' },
  { key: 'uncuedAccuracyB', label: 'B uncued accuracy %', unit: '%' },
  { key: 'selfConsistencyA', label: 'A self-consistency %', unit: '%' },
  { key: 'selfConsistencyB', label: 'B self-consistency %', unit: '%' },
  { key: 'costA', label: 'A judge cost USD', digits: 4 },
  { key: 'costB', label: 'B judge cost USD', digits: 4 },
];

const numberOf = (cell: ReportRow[string] | undefined) => (typeof cell === 'number' ? cell : null);

/** Judge pairs: every id in both, plus the one leftover of each when exactly one is left. */
function judgePairs(a: readonly ReportRow[], b: readonly ReportRow[]): [string, string][] {
  const judgesA = [...new Set(a.map((row) => String(row.judge)))];
  const judgesB = [...new Set(b.map((row) => String(row.judge)))];
  const shared = judgesA.filter((judge) => judgesB.includes(judge));
  const pairs: [string, string][] = shared.map((judge) => [judge, judge]);
  const leftA = judgesA.filter((judge) => !shared.includes(judge));
  const leftB = judgesB.filter((judge) => !shared.includes(judge));
  if (leftA.length === 1 && leftB.length === 1) pairs.push([leftA[0] ?? '', leftB[0] ?? '']);
  return pairs;
}

function pairedRow(a: ReportRow, b: ReportRow): ReportRow {
  const beyondA = numberOf(a.harmfulBeyondPlaceboPp);
  const beyondB = numberOf(b.harmfulBeyondPlaceboPp);
  return {
    judgeA: a.judge ?? null,
    judgeB: b.judge ?? null,
    family: a.family ?? null,
    placement: a.placement ?? null,
    condition: a.condition ?? null,
    beyondA,
    beyondACiLow: numberOf(a.harmfulBeyondPlaceboCiLow),
    beyondACiHigh: numberOf(a.harmfulBeyondPlaceboCiHigh),
    flagA: a.flag ?? null,
    beyondB,
    beyondBCiLow: numberOf(b.harmfulBeyondPlaceboCiLow),
    beyondBCiHigh: numberOf(b.harmfulBeyondPlaceboCiHigh),
    flagB: b.flag ?? null,
    change: beyondA === null || beyondB === null ? null : beyondB - beyondA,
    uncuedAccuracyA: numberOf(a.uncuedAccuracyPct),
    uncuedAccuracyB: numberOf(b.uncuedAccuracyPct),
    selfConsistencyA: numberOf(a.selfConsistencyPct),
    selfConsistencyB: numberOf(b.selfConsistencyPct),
    costA: numberOf(a.judgeCostUsd),
    costB: numberOf(b.judgeCostUsd),
  };
}

/** Study B's card against study A's, both read at `tolerancePp`. */
export function compareCards(
  cardA: ReportTable,
  cardB: ReportTable,
  names: { readonly a: string; readonly b: string },
  tolerancePp: number,
): Pick<ReportTable, 'title' | 'columns' | 'rows' | 'notes'> {
  const rows: ReportRow[] = [];
  const unmatched: string[] = [];
  const pairs = judgePairs(cardA.rows, cardB.rows);
  for (const [judgeA, judgeB] of pairs) {
    const bByCondition = new Map(
      cardB.rows.filter((row) => row.judge === judgeB).map((row) => [String(row.condition), row]),
    );
    for (const rowA of cardA.rows.filter((row) => row.judge === judgeA)) {
      const rowB = bByCondition.get(String(rowA.condition));
      if (rowB) rows.push(pairedRow(rowA, rowB));
      else unmatched.push(`${judgeA} ${String(rowA.condition)} (A only)`);
    }
    const inA = new Set(
      cardA.rows.filter((row) => row.judge === judgeA).map((row) => String(row.condition)),
    );
    for (const condition of bByCondition.keys())
      if (!inA.has(condition)) unmatched.push(`${judgeB} ${condition} (B only)`);
  }
  const notes = [
    `Each study's report card at a tolerance of ${tolerancePp} pp: its harmful flips beyond the family's placebo at the same placement, with its own Newcombe paired 95% interval; a flag only when that interval lies wholly above the tolerance.`,
    `B − A: study B "${names.b}" minus study A "${names.a}", point estimates only (each card's interval is its own; cuelab compare without --card tests the flip-rate change).`,
  ];
  if (cardA.rows.length === 0 && cardB.rows.length === 0)
    notes.push('Neither study ran a cue-family arm, so there are no cards to compare.');
  else if (rows.length === 0)
    notes.push('No judge × cue-family arm is in both studies, so there is nothing to compare.');
  if (unmatched.length > 0) notes.push(`Not compared: ${unmatched.join('; ')}.`);
  return { title: 'Report cards compared: study B against study A', columns: COLUMNS, rows, notes };
}
