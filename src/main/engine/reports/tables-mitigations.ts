/**
 * Table 1: harmful and helpful flip rates before → after each mitigation (§3.4), with the exact
 * McNemar p of each comparison and its Holm adjustment across the condition grid.
 */
import {
  benjaminiHochbergWithin,
  BH_METHOD,
  flipRates,
  type FlipRow,
  holmAdjustWithin,
  HOLM_METHOD,
  type JudgeRepRow,
  makeTable,
  mitigationEffects,
  type MitigationRow,
  percent,
  POOLED,
  realizedPower,
  realizedPowerCell,
  type ReportColumn,
  type ReportRow,
  type ReportTable,
  rowFacts,
  simulatedEffectCell,
  UNCUED_CONDITION,
  uncuedRepIcc,
  whyNoPairs,
} from '../analysis';
import { adjustedPColumn } from './table-statistics';

/**
 * The second reading of a mitigation's control arm: the after arm paired with an uncued arm
 * that ran the same mitigation (`uncued+MITIGATION`), when the study has one.
 */
function mitigatedControlRates(
  rows: readonly JudgeRepRow[],
  effects: readonly MitigationRow[],
): (effect: MitigationRow) => FlipRow | undefined {
  const controlOf = (effect: MitigationRow) => `${UNCUED_CONDITION}+${effect.mitigation}`;
  const keyOf = (effect: MitigationRow) => `${controlOf(effect)}\u0000${effect.after.condition}`;
  const byArm = new Map<string, readonly FlipRow[]>();
  // One pass over the rows for the conditions present, not one per mitigation row.
  const conditions = rowFacts(rows).conditions;
  for (const effect of effects) {
    const control = controlOf(effect);
    if (byArm.has(keyOf(effect)) || !conditions.has(control)) continue;
    const armRows = rows.filter(
      (row) => row.condition === control || row.condition === effect.after.condition,
    );
    byArm.set(keyOf(effect), flipRates(armRows, { controlCondition: control }));
  }
  return (effect) =>
    byArm
      .get(keyOf(effect))
      ?.find(
        (row) =>
          row.condition === effect.after.condition &&
          row.dimension === effect.dimension &&
          row.scope === effect.scope &&
          row.judge === effect.judge &&
          row.dataset === effect.dataset,
      );
}

/** Table 1: harmful / helpful flip rates before → after each mitigation, exact McNemar p. */
export function mitigationsTable(rows: readonly JudgeRepRow[]): ReportTable {
  const effects = mitigationEffects(rows);
  const mitigated = mitigatedControlRates(rows, effects);
  // The family is one scope of one judge and dataset: every mitigation, cue and placement
  // compared there, for one kind of flip, is one grid of tests.
  const family = (effect: MitigationRow) =>
    [effect.scope, effect.judge ?? '', effect.dataset ?? ''].join('\u0000');
  const harmfulAdjusted = holmAdjustWithin(effects, (effect) => effect.harmfulTest.pValue, family);
  const helpfulAdjusted = holmAdjustWithin(effects, (effect) => effect.helpfulTest.pValue, family);
  const harmfulBh = benjaminiHochbergWithin(effects, (effect) => effect.harmfulTest.pValue, family);
  const notes = [
    'before = the cued condition without the mitigation, after = the same cue and placement ' +
      'with it (§3.4)',
    'control: §3.4 does not say whether the control arm also ran with the mitigation. HF % ' +
      'before / after use the unmitigated control (the uncued arm); the "vs mitigated control" ' +
      `columns pair the after arm with an uncued arm that ran the mitigation (condition ` +
      `"${UNCUED_CONDITION}+MITIGATION"), when the study has one`,
    'p = exact two-sided McNemar test on the items determined in both arms (harmful: gated ' +
      'items; helpful: wrong items); n = those items',
    `${HOLM_METHOD}-adjusted p: ${HOLM_METHOD}'s step-down adjustment (family-wise error) over ` +
      'every comparison in the table at the same scope, judge and dataset (all mitigations, ' +
      'cues, placements and dimensions), harmful and helpful tests adjusted separately; ' +
      `${BH_METHOD}-adjusted p: Benjamini–Hochberg's step-up over the same family (controls ` +
      'the false-discovery rate, for large grids of cue axes and placements)',
    FRONTIER_NOTE,
    realizedNote(rows),
  ];
  if (effects.length === 0)
    notes.push(
      whyNoPairs(rows) ??
        'this study has no mitigated condition paired with an unmitigated one of the same cue ' +
          'and placement',
    );
  return makeTable(
    {
      name: 'mitigations',
      title: 'Mitigations: harmful and helpful flip rates before → after (Table 1)',
      columns: [
        { key: 'mitigation', label: 'Mitigation' },
        { key: 'before', label: 'Before condition' },
        { key: 'after', label: 'After condition' },
        { key: 'dimension', label: 'Dimension' },
        { key: 'scope', label: 'Scope' },
        { key: 'judge', label: 'Judge' },
        { key: 'dataset', label: 'Dataset' },
        { key: 'control', label: 'Control' },
        { key: 'gate', label: 'gate' },
        { key: 'harmfulBeforePct', label: 'HF % before', unit: '%' },
        { key: 'harmfulAfterPct', label: 'HF % after', unit: '%' },
        { key: 'harmfulP', label: 'HF McNemar p', unit: 'p' },
        adjustedPColumn('harmfulP', 'HF McNemar p'),
        { key: 'harmfulPBh', label: `HF McNemar p (${BH_METHOD}-adjusted)`, unit: 'p' },
        { key: 'harmfulPower', label: 'HF realized power' },
        { key: 'wrong', label: 'wrong' },
        { key: 'helpfulBeforePct', label: 'HELP % before', unit: '%' },
        { key: 'helpfulAfterPct', label: 'HELP % after', unit: '%' },
        { key: 'helpfulP', label: 'HELP McNemar p', unit: 'p' },
        adjustedPColumn('helpfulP', 'HELP McNemar p'),
        { key: 'n', label: 'n paired' },
        { key: 'harmfulAfterMitigatedPct', label: 'HF % after vs mitigated control', unit: '%' },
        { key: 'helpfulAfterMitigatedPct', label: 'HELP % after vs mitigated control', unit: '%' },
        ...frontierColumns,
        { key: 'simulatedEffect', label: 'Simulated effect' },
      ],
      rows: effects.map((effect, index) => ({
        mitigation: effect.mitigation,
        before: effect.before.condition,
        after: effect.after.condition,
        dimension: effect.dimension,
        scope: effect.scope,
        judge: effect.judge ?? POOLED,
        dataset: effect.dataset ?? POOLED,
        control: 'unmitigated',
        gate: effect.before.gate,
        harmfulBeforePct: percent(effect.before.harmfulFlipRate),
        harmfulAfterPct: percent(effect.after.harmfulFlipRate),
        harmfulP: effect.harmfulTest.pValue,
        harmfulPAdjusted: harmfulAdjusted[index] ?? null,
        harmfulPBh: harmfulBh[index] ?? null,
        harmfulPower: harmfulPowerCell(effect),
        wrong: effect.before.wrong,
        helpfulBeforePct: percent(effect.before.helpfulFlipRate),
        helpfulAfterPct: percent(effect.after.helpfulFlipRate),
        helpfulP: effect.helpfulTest.pValue,
        helpfulPAdjusted: helpfulAdjusted[index] ?? null,
        n: effect.n,
        harmfulAfterMitigatedPct: percent(mitigated(effect)?.harmfulFlipRate ?? null),
        helpfulAfterMitigatedPct: percent(mitigated(effect)?.helpfulFlipRate ?? null),
        ...frontierCells(effect),
        simulatedEffect: simulatedEffectCell(effect.mitigation, effect.simulated),
      })),
      notes,
    },
    rows,
    effects,
  );
}

function harmfulPowerCell(effect: MitigationRow): string {
  const harm = effect.harmfulDifference;
  return realizedPowerCell(
    realizedPower(harm?.n ?? 0, harm?.first ?? null, effect.harmfulTest.pValue),
  );
}

function realizedNote(rows: readonly JudgeRepRow[]): string {
  const icc = uncuedRepIcc(rows);
  return (
    'HF realized power: "detected" when McNemar p < 0.05; otherwise the smallest drop in HF % ' +
    'the exact McNemar test had 80% power to detect on these paired items from the observed ' +
    'before rate ("no change > X pp"), or "underpowered" when not even removing every harmful ' +
    'flip was detectable. ICC of the uncued reps (one-way ANOVA of rep correctness within ' +
    `items) = ${icc === null ? 'n/a (too few items with two or more reps)' : icc.toFixed(2)}` +
    '; the estimate assumes 0.64 unless told otherwise (it converts rates per rep, not the test)'
  );
}

/**
 * The harm/help frontier (CueLab's figure for §4's open problem): how much harm a mitigation
 * removes against how much of the cue's help it keeps, each on the items paired in both arms.
 */
const FRONTIER_NOTE =
  'HF reduction = HF % before − after on the items gated in both arms (pp), with Newcombe’s ' +
  'paired 95% interval; HELP retained = HELP % after / before on the items wrong in both arms, ' +
  'its interval that of the difference divided by the before rate (the before rate held fixed), ' +
  'clipped to what the rates allow (0 to 100 / before rate %)';

const frontierColumns: ReportColumn[] = [
  { key: 'harmfulReductionPp', label: 'HF reduction (pp)', unit: 'pp' },
  { key: 'harmfulReductionCiLow', label: 'HF reduction 95% CI low', unit: 'pp', interval: 'low' },
  {
    key: 'harmfulReductionCiHigh',
    label: 'HF reduction 95% CI high',
    unit: 'pp',
    interval: 'high',
  },
  { key: 'helpfulRetainedPct', label: 'HELP retained %', unit: '%' },
  { key: 'helpfulRetainedCiLow', label: 'HELP retained 95% CI low', unit: '%', interval: 'low' },
  { key: 'helpfulRetainedCiHigh', label: 'HELP retained 95% CI high', unit: '%', interval: 'high' },
];

function frontierCells(effect: MitigationRow): ReportRow {
  const harm = effect.harmfulDifference;
  const help = effect.helpfulDifference;
  // Help kept = after / before lies in [0, 1 / before]: the difference's interval, divided by the
  // before rate, is clipped there (an after rate cannot be below 0 or above 1).
  const keep =
    help && help.first > 0
      ? (value: number) => Math.min(100 / help.first, Math.max(0, 100 * (1 - value / help.first)))
      : null;
  return {
    harmfulReductionPp: harm ? harm.difference * 100 : null,
    harmfulReductionCiLow: harm ? harm.interval.low * 100 : null,
    harmfulReductionCiHigh: harm ? harm.interval.high * 100 : null,
    helpfulRetainedPct: help && keep ? keep(help.difference) : null,
    helpfulRetainedCiLow: help && keep ? keep(help.interval.high) : null,
    helpfulRetainedCiHigh: help && keep ? keep(help.interval.low) : null,
  };
}
