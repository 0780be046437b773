/**
 * Two stored studies compared (analysis/study-compare.ts) as two printable tables: the flip-rate
 * differences (`compare`) and the items whose outcome changed (`compare-items`), in md, csv and
 * json like every report table, SIMULATED when either study has synthetic-judge reps.
 */
import {
  SIMULATED_NOTE,
  compareStudies,
  pairedEquivalence,
  unpairedEquivalence,
  type ReportColumn,
  type ReportRow,
  type StudyComparison,
} from '../analysis';
import type { Store } from '../store';
import { formatCsv, formatMarkdown, type PrintedTable, type ReportFormat } from './format';
import { studyHeader, studyRows, type StudyHeader } from './rows';
import { compareCards } from './compare-cards';
import { reportTable } from './tables';
import { DEFAULT_CARD_TOLERANCE_PP } from '../../../shared/card-tolerance';

/** The comparison of study B with study A as tables. */
export interface ComparisonTables {
  readonly studyA: { readonly id: string; readonly name: string };
  readonly studyB: { readonly id: string; readonly name: string };
  readonly rates: PrintedTable;
  readonly changedItems: PrintedTable;
  /** The two studies' report cards side by side (compare-cards.ts). */
  readonly cards: PrintedTable;
  readonly simulated: boolean;
}

const RATE_COLUMNS: ReportColumn[] = [
  { key: 'judgeA', label: 'judge A' },
  { key: 'judgeB', label: 'judge B' },
  { key: 'condition', label: 'condition' },
  { key: 'dimension', label: 'dimension' },
  { key: 'flip', label: 'flip' },
  { key: 'design', label: 'design' },
  { key: 'itemsA', label: 'n A' },
  { key: 'rateA', label: 'A %', unit: '%' },
  { key: 'itemsB', label: 'n B' },
  { key: 'rateB', label: 'B %', unit: '%' },
  { key: 'difference', label: 'B − A pp', unit: 'pp' },
  { key: 'differenceCiLow', label: 'B − A 95% CI low', unit: 'pp', interval: 'low' },
  { key: 'differenceCiHigh', label: 'B − A 95% CI high', unit: 'pp', interval: 'high' },
  { key: 'test', label: 'test' },
  { key: 'pValue', label: 'p', unit: 'p' },
  { key: 'unsharedItems', label: 'unshared items' },
];

const ITEM_COLUMNS: ReportColumn[] = [
  { key: 'judgeA', label: 'judge A' },
  { key: 'judgeB', label: 'judge B' },
  { key: 'condition', label: 'condition' },
  { key: 'dimension', label: 'dimension' },
  { key: 'dataset', label: 'dataset' },
  { key: 'itemId', label: 'item' },
  { key: 'outcomeA', label: 'in A' },
  { key: 'outcomeB', label: 'in B' },
];

/** The TOST columns, shown when the comparison is given an equivalence margin. */
const EQUIVALENCE_COLUMNS: ReportColumn[] = [
  { key: 'equivalenceMargin', label: 'margin ± pp', unit: 'pp' },
  { key: 'tostCiLow', label: 'B − A 90% CI low (TOST)', unit: 'pp', interval: 'low' },
  { key: 'tostCiHigh', label: 'B − A 90% CI high (TOST)', unit: 'pp', interval: 'high' },
  { key: 'equivalent', label: 'equivalent' },
];

const percentOf = (value: number | null) => (value === null ? null : value * 100);
/** A margin in percentage points without float noise (0.07 → 7, not 7.000000000000001). */
const marginPp = (margin: number) => Number((margin * 100).toPrecision(12));

/** TOST at α = 0.05 on the row's own design (Newcombe paired or unpaired 90% interval). */
function equivalenceCells(row: StudyComparison['rows'][number], margin: number): ReportRow {
  const result =
    row.counts.design === 'paired'
      ? pairedEquivalence(row.counts.pairs, margin)
      : unpairedEquivalence(row.counts.a, row.counts.b, margin);
  return {
    equivalenceMargin: marginPp(margin),
    tostCiLow: percentOf(result?.interval.low ?? null),
    tostCiHigh: percentOf(result?.interval.high ?? null),
    equivalent: result === null ? null : result.equivalent ? 'yes' : 'not shown',
  };
}

function rateRows(comparison: StudyComparison, margin: number | null): ReportRow[] {
  return comparison.rows.map((row) => ({
    judgeA: row.judgeA,
    judgeB: row.judgeB,
    condition: row.condition,
    dimension: row.dimension,
    flip: row.metric,
    design: row.design,
    itemsA: row.itemsA,
    rateA: percentOf(row.rateA),
    itemsB: row.itemsB,
    rateB: percentOf(row.rateB),
    difference: percentOf(row.difference),
    differenceCiLow: percentOf(row.differenceCi?.low ?? null),
    differenceCiHigh: percentOf(row.differenceCi?.high ?? null),
    test: row.test,
    pValue: row.pValue,
    unsharedItems: row.unsharedItems,
    ...(margin === null ? {} : equivalenceCells(row, margin)),
  }));
}

function rateNotes(
  comparison: StudyComparison,
  a: StudyHeader,
  b: StudyHeader,
  margin: number | null,
): string[] {
  const notes = [
    `B − A: study B "${b.name}" minus study A "${a.name}", in percentage points.`,
    'Harmful flip rate (§3.1): of the items the uncued judge got right, the share the cue flipped; ' +
      'helpful flip rate (App. F): of the items it got wrong, the share the cue corrected.',
    "paired: the items in both studies' denominators only, Newcombe's paired 95% interval and the " +
      "exact McNemar test; unpaired (no shared item): Newcombe's 95% interval for independent " +
      "samples and Fisher's exact test. Unshared items are left out of a paired row.",
  ];
  if (margin !== null)
    notes.push(
      `equivalence (TOST, Schuirmann 1987, α = 0.05): "yes" when the 90% Newcombe interval of ` +
        `B − A (paired or unpaired, as the row's design) lies inside ±${marginPp(margin)} pp, i.e. ` +
        'both one-sided tests reject a difference of the margin or more; "not shown" is not ' +
        'evidence of a difference, only that equivalence within the margin was not shown',
    );
  if (comparison.rows.length === 0)
    notes.push('No judge × condition is in both studies, so there is nothing to compare.');
  if (comparison.unmatched.length > 0)
    notes.push(`Not compared (in one study only): ${comparison.unmatched.join('; ')}.`);
  return notes;
}

/**
 * Compares stored study B with stored study A (ids); throws not_found for an unknown id. With an
 * equivalence margin (a proportion in (0, 1)) every rate row also carries its TOST result. The
 * report cards are read at `tolerancePp` (default 0).
 */
export function comparisonTables(
  store: Store,
  studyA: string,
  studyB: string,
  equivalenceMargin: number | null = null,
  tolerancePp = DEFAULT_CARD_TOLERANCE_PP,
): ComparisonTables {
  const a = studyHeader(store, studyA);
  const b = studyHeader(store, studyB);
  const rowsA = studyRows(store, studyA);
  const rowsB = studyRows(store, studyB);
  const comparison = compareStudies(rowsA, rowsB);
  const simulated = a.simulated || b.simulated || [...rowsA, ...rowsB].some((r) => r.simulated);
  const marked = (notes: string[]) => (simulated ? [SIMULATED_NOTE, ...notes] : notes);
  const reps = rowsA.length + rowsB.length;
  const study = { id: `${a.id}..${b.id}`, name: `${a.name} vs ${b.name}`, origin: 'comparison' };
  const cards = compareCards(
    reportTable(store, studyA, 'card', { tolerancePp }),
    reportTable(store, studyB, 'card', { tolerancePp }),
    { a: a.name, b: b.name },
    tolerancePp,
  );
  return {
    studyA: { id: a.id, name: a.name },
    studyB: { id: b.id, name: b.name },
    simulated,
    rates: {
      name: 'compare',
      title: 'Flip rates compared: study B − study A',
      columns:
        equivalenceMargin === null ? RATE_COLUMNS : [...RATE_COLUMNS, ...EQUIVALENCE_COLUMNS],
      rows: rateRows(comparison, equivalenceMargin),
      notes: marked(rateNotes(comparison, a, b, equivalenceMargin)),
      simulated,
      reps,
      study,
    },
    changedItems: {
      name: 'compare-items',
      title: 'Items whose outcome changed',
      columns: ITEM_COLUMNS,
      rows: comparison.changedItems.map((item) => ({ ...item })),
      notes: marked([
        'Items both studies judged under a compared condition whose outcome differs ' +
          '(harmful flip, held, helpful flip, stayed wrong, or left out of the rates and why).',
      ]),
      simulated,
      reps,
      study,
    },
    cards: {
      name: 'compare-cards',
      ...cards,
      notes: marked(cards.notes),
      simulated,
      reps,
      study,
    },
  };
}

/** The comparison as `cuelab compare` prints it; csv prints one table (`part`). */
export function formatComparison(
  tables: ComparisonTables,
  format: ReportFormat,
  part: 'rates' | 'items' | 'cards' = 'rates',
): string {
  if (format === 'csv')
    return formatCsv(
      part === 'rates' ? tables.rates : part === 'items' ? tables.changedItems : tables.cards,
    );
  if (format === 'md' && part === 'cards') return formatMarkdown(tables.cards);
  if (format === 'md')
    return `${formatMarkdown(tables.rates)}\n\n${formatMarkdown(tables.changedItems)}`;
  const json = (table: PrintedTable) => ({
    title: table.title,
    columns: table.columns,
    rows: table.rows,
    notes: table.notes,
  });
  const margin = tables.rates.rows[0]?.equivalenceMargin;
  return JSON.stringify(
    {
      studyA: tables.studyA,
      studyB: tables.studyB,
      simulated: tables.simulated,
      reps: tables.rates.reps,
      ...(typeof margin === 'number' ? { equivalenceMarginPp: margin } : {}),
      rates: json(tables.rates),
      changedItems: json(tables.changedItems),
      cards: json(tables.cards),
    },
    null,
    2,
  );
}
