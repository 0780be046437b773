/**
 * Tables of one effect size per cue condition: ablation (§3.2 Tables 2–4, % of taxonomy ceiling
 * closed), placement (App. K Table 8, the same metric per placement) and effort (App. L, harmful
 * flips by turns taken). Error-attribution studies use the ceiling metric with a bootstrap CI;
 * a binary study has no ceiling, so ablation and placement show its harmful flip rate instead.
 */
import {
  resolveBootstrap,
  harmfulFlipsByEffort,
  flipRates,
  headroomClosed,
  type JudgeRepRow,
  UNCUED_CONDITION,
  type ReportColumn,
  type ReportRow,
  type ReportTable,
  POOLED,
  intervalCells,
  intervalColumns,
  makeTable,
  percent,
  percentIntervalCells,
  rowFacts,
  whyNoPairs,
} from '../analysis';
import { EFFORT_MIN_REPS_PER_BIN } from '../paper';
import { fewItemsWarning } from './table-statistics';

/** One condition's effect at one scope, in either metric. */
interface EffectRow {
  readonly row: ReportRow;
  readonly placement: string | null;
  readonly simulated: boolean;
}

const CEILING_METRIC = '% of ceiling closed';
const FLIP_METRIC = 'harmful flip %';

const effectColumns: ReportColumn[] = [
  { key: 'condition', label: 'Condition' },
  { key: 'cue', label: 'Cue' },
  { key: 'placement', label: 'Placement' },
  { key: 'mitigation', label: 'Mitigation' },
  { key: 'dimension', label: 'Dimension' },
  { key: 'judge', label: 'Judge' },
  { key: 'dataset', label: 'Dataset' },
  { key: 'metric', label: 'Metric' },
  { key: 'n', label: 'n' },
  { key: 'value', label: 'value %', unit: '%' },
  ...intervalColumns('value', 'value %'),
  { key: 'excluded', label: 'excluded' },
];

/** Cue label, placement and mitigation of each cued condition, from its first rep. */
function describeConditions(rows: readonly JudgeRepRow[]) {
  const described = new Map<
    string,
    { cue: string | null; placement: string | null; mitigation: string | null }
  >();
  for (const [condition, row] of rowFacts(rows).conditions) {
    if (condition === UNCUED_CONDITION) continue;
    described.set(condition, {
      cue: row.cueLabel ?? null,
      placement: row.placement ?? null,
      mitigation: row.mitigation ?? null,
    });
  }
  return described;
}

/** The dataset cell of a ceiling effect averaged over datasets. */
export const POOLED_MEAN_DATASET = `${POOLED} (unweighted mean)`;

/** Ceiling closed per condition × judge: each dataset, then the unweighted mean across them. */
function ceilingEffects(rows: readonly JudgeRepRow[]): EffectRow[] {
  const described = describeConditions(rows);
  return headroomClosed(rows).map((entry) => {
    const condition = described.get(entry.condition);
    return {
      placement: condition?.placement ?? null,
      simulated: entry.simulated,
      row: {
        condition: entry.condition,
        cue: condition?.cue ?? null,
        placement: condition?.placement ?? null,
        mitigation: condition?.mitigation ?? null,
        dimension: 'error_attribution',
        judge: entry.judge,
        dataset: entry.dataset ?? POOLED_MEAN_DATASET,
        metric: CEILING_METRIC,
        n: entry.n,
        value: entry.percentOfCeiling,
        ...percentIntervalCells('value', entry.ci),
        excluded: entry.excluded.incomplete + entry.excluded.noHeadroom,
      },
    };
  });
}

/** Harmful flip rate per condition × judge (pooled over datasets), and over judges if several. */
function flipEffects(rows: readonly JudgeRepRow[]): EffectRow[] {
  const described = describeConditions(rows);
  const judges = rowFacts(rows).judges.size;
  return flipRates(rows)
    .filter((flip) => flip.scope === 'judge' || (flip.scope === 'all' && judges > 1))
    .map((flip) => {
      const condition = described.get(flip.condition);
      return {
        placement: condition?.placement ?? null,
        simulated: flip.simulated,
        row: {
          condition: flip.condition,
          cue: condition?.cue ?? null,
          placement: condition?.placement ?? null,
          mitigation: condition?.mitigation ?? null,
          dimension: flip.dimension,
          judge: flip.judge ?? POOLED,
          dataset: POOLED,
          metric: FLIP_METRIC,
          n: flip.gate,
          value: percent(flip.harmfulFlipRate),
          ...intervalCells('value', flip.harmfulFlipCi),
          excluded:
            flip.excluded.undetermined +
            flip.excluded.noGold +
            flip.excluded.noControl +
            flip.excluded.notOpposing,
        },
      };
    });
}

function effects(
  rows: readonly JudgeRepRow[],
  per: 'cue condition' | 'placement',
): { effects: EffectRow[]; notes: string[] } {
  if (rowFacts(rows).cuedAttribution) {
    const settings = resolveBootstrap();
    return {
      effects: ceilingEffects(rows),
      notes: [
        '% of ceiling closed = (cued − uncued) / (taxonomy size − uncued) per trajectory, the ' +
          'mean per dataset, then the unweighted mean across datasets (§3.2, App. B)',
        `95% percentile bootstrap over trajectories (${settings.resamples} resamples, seed ` +
          `${settings.seed}); n = trajectories with headroom; excluded = incomplete or no headroom`,
      ],
    };
  }
  const notes = [
    'this study has no error-attribution reps, so there is no ceiling to close: showing the ' +
      `harmful flip rate per ${per} instead (n = gated items, 95% Wilson intervals)`,
  ];
  const found = flipEffects(rows);
  if (found.length === 0) notes.push(whyNoPairs(rows) ?? 'no cued condition could be paired');
  return { effects: found, notes };
}

/** §3.2 property ablation: the effect of every cue condition. */
export function ablationTable(rows: readonly JudgeRepRow[]): ReportTable {
  const found = effects(rows, 'cue condition');
  return makeTable(
    {
      name: 'ablation',
      title: 'Cue ablation: effect per cue condition (§3.2, Tables 2–4)',
      columns: effectColumns,
      rows: found.effects.map((effect) => effect.row),
      notes: found.notes,
    },
    rows,
    found.effects,
  );
}

/** App. K Table 8: the ablation metric per placement of the cue. */
export function placementTable(rows: readonly JudgeRepRow[]): ReportTable {
  const found = effects(rows, 'placement');
  const placed = found.effects.filter((effect) => effect.placement !== null);
  const order = [...new Set(placed.map((effect) => effect.placement))];
  const sorted = [...placed].sort(
    (a, b) => order.indexOf(a.placement) - order.indexOf(b.placement),
  );
  const notes = [...found.notes];
  if (found.effects.length > placed.length)
    notes.push(
      'conditions whose reps carry no placement are left out (imported files: add a placement column)',
    );
  const described = [...describeConditions(rows).values()].filter((entry) => entry.placement);
  const cues = new Set(described.map((entry) => `${entry.cue} ${entry.mitigation}`));
  if (cues.size > 1)
    notes.push('conditions differ in cue or mitigation as well: compare rows with the same ones');
  return makeTable(
    {
      name: 'placement',
      title: 'Placement of the cue (App. K, Table 8)',
      columns: [
        effectColumns[2] as ReportColumn,
        ...effectColumns.filter((column) => column.key !== 'placement'),
      ],
      rows: sorted.map((effect) => effect.row),
      notes,
    },
    rows,
    sorted,
  );
}

/** App. L / Fig. 3: harmful flip rate by turn bin, hidden bins marked, Pearson r per judge. */
export function effortTable(rows: readonly JudgeRepRow[]): ReportTable {
  const curves = harmfulFlipsByEffort(rows);
  const out: ReportRow[] = [];
  const notes = [
    `bins: App. L's fixed edges (26+ merged into 16–25); a bin with fewer than ` +
      `${EFFORT_MIN_REPS_PER_BIN} gold-gated cued reps is hidden (not plotted, no rate)`,
    'n counts reps, not items (Table 9); Pearson r is over the raw (turns, flipped) points ' +
      'before binning, on the judge’s "all" row',
    'a bin’s interval is the item-clustered bootstrap over the items its reps come from (reps ' +
      'of one item are not independent), never narrower than Wilson’s at the effective sample ' +
      'size; a bin on fewer than 15 items is marked "few items"; items on the "all" row counts ' +
      'an item once per bin it has reps in',
  ];
  for (const curve of curves) {
    const common = { condition: curve.condition, dimension: curve.dimension, judge: curve.judge };
    for (const bin of curve.bins) {
      out.push({
        ...common,
        turns: bin.label,
        n: bin.n,
        harmful: bin.harmfulFlips,
        harmfulPct: percent(bin.harmfulFlipRate),
        ...intervalCells('harmful', bin.harmfulFlipCi),
        items: bin.items,
        warning: bin.hidden ? null : fewItemsWarning(bin),
        plotted: bin.hidden ? 'hidden' : 'yes',
        pearsonR: null,
      });
    }
    out.push({
      ...common,
      turns: POOLED,
      n: curve.n,
      harmful: curve.harmfulFlips,
      harmfulPct: curve.n === 0 ? null : (100 * curve.harmfulFlips) / curve.n,
      harmfulCiLow: null,
      harmfulCiHigh: null,
      items: curve.bins.reduce((sum, bin) => sum + bin.items, 0),
      warning: null,
      plotted: null,
      pearsonR: curve.pearsonR,
    });
    const { invalidVerdict, noTurns, outsideBins } = curve.excluded;
    if (invalidVerdict + noTurns + outsideBins > 0)
      notes.push(
        `${curve.judge} (${curve.condition}): left out ${invalidVerdict} reps without a valid ` +
          `verdict, ${noTurns} without a turn count, ${outsideBins} outside every bin`,
      );
  }
  if (curves.length === 0) notes.push(whyNoPairs(rows) ?? 'no cued rep of a gated item');
  else if (curves.every((curve) => curve.n === 0))
    notes.push('no gated cued rep has a turn count (imported files: fill the turns column)');
  return makeTable(
    {
      name: 'effort',
      title: 'Harmful flip rate by judge effort (turns taken; Fig. 3, App. L)',
      columns: [
        { key: 'condition', label: 'Condition' },
        { key: 'dimension', label: 'Dimension' },
        { key: 'judge', label: 'Judge' },
        { key: 'turns', label: 'Turns' },
        { key: 'n', label: 'n reps' },
        { key: 'harmful', label: '#HF' },
        { key: 'harmfulPct', label: 'HF %', unit: '%' },
        ...intervalColumns('harmful', 'HF % item-clustered'),
        { key: 'items', label: 'items' },
        { key: 'warning', label: 'warning' },
        { key: 'plotted', label: 'Plotted' },
        { key: 'pearsonR', label: 'Pearson r', unit: 'r' },
      ],
      rows: out,
      notes,
    },
    rows,
    curves,
  );
}
