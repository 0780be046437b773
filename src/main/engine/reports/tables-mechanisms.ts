/**
 * Mechanism tables (§3.3, App. F, I): the mixture of flip mechanisms per judge (Fig. 5) and per
 * dimension (Fig. 17) for harmful flips, and the helpful-flip mechanisms (Fig. 15). Each flip's
 * label is the ensemble's when the study was classified by LLM voters, else the deterministic
 * diff classifier's; the table says which.
 */
import { flipsWithLabels } from '../metajudge';
import type { Store } from '../store';
import { SIMULATED_NOTE, type ReportColumn, type ReportRow, type ReportTable } from '../analysis';

const harmfulLabels = ['over_trust', 'hallucination', 'under_investigation'] as const;
const helpfulLabels = ['better_investigation', 'lucky_deference', 'evidence_reweighting'] as const;

/** The mixture of mechanisms among a study's flips of one kind. */
export function mechanismMixTable(
  store: Store,
  studyId: string,
  kind: 'harmful' | 'helpful',
): ReportTable {
  const flips = flipsWithLabels(store, studyId).filter((flip) => flip.kind === kind);
  const labels = kind === 'harmful' ? harmfulLabels : helpfulLabels;
  const source = flips.some((flip) => flip.labels.ensemble) ? 'ensemble' : 'diff';
  // Each flip carries its own dimension, so one multi-dimension study gives Fig. 17 whole.
  type Group = {
    labels: string;
    judge: string;
    dimension: string;
    counts: Map<string, number>;
    n: number;
  };
  const groups = new Map<string, Group>();
  const count = (labels: string, judge: string, dimension: string, label: string) => {
    const key = `${labels}\u0000${judge}\u0000${dimension}`;
    const group = groups.get(key) ?? {
      ...{ labels, judge, dimension },
      counts: new Map<string, number>(),
      n: 0,
    };
    group.counts.set(label, (group.counts.get(label) ?? 0) + 1);
    group.n += 1;
    groups.set(key, group);
  };
  let unlabelled = 0;
  for (const flip of flips) {
    const label = flip.labels[source]?.label;
    if (!label) unlabelled += 1;
    else for (const judge of [flip.judgeId, 'all']) count(source, judge, flip.dimension, label);
  }
  // App. P reads the mixture by one voter alone (e.g. Opus-only) beside the ensemble's.
  const voters = [...new Set(flips.flatMap((flip) => Object.keys(flip.labels)))].filter((name) =>
    name.startsWith('voter:'),
  );
  for (const voter of voters.sort()) {
    for (const flip of flips) {
      const label = flip.labels[voter]?.label;
      if (label && label !== 'invalid') {
        for (const judge of [flip.judgeId, 'all']) count(voter, judge, flip.dimension, label);
      }
    }
  }
  const columns: ReportColumn[] = [
    { key: 'labels', label: 'Labels' },
    { key: 'judge', label: 'Judge' },
    { key: 'dimension', label: 'Dimension' },
    { key: 'n', label: `${kind} flips labelled` },
    ...labels.map((label) => ({
      key: label,
      label: `${label.replace(/_/g, ' ')} %`,
      unit: '%' as const,
    })),
    { key: 'other', label: 'other %', unit: '%' as const },
  ];
  const rows: ReportRow[] = [...groups.values()].map((group) => {
    const { judge, dimension, n } = group;
    const row: ReportRow = { labels: group.labels, judge, dimension, n };
    let known = 0;
    for (const label of labels) {
      const count = group.counts.get(label) ?? 0;
      known += count;
      row[label] = (count / group.n) * 100;
    }
    row.other = ((group.n - known) / group.n) * 100;
    return row;
  });
  const notes = [
    `labels from the ${source === 'ensemble' ? 'LLM meta-judge ensemble' : 'deterministic trajectory-diff classifier'} (cuelab classify ${source === 'ensemble' ? '--voters FILE' : '--diff-only'})`,
    'labels: the mixture by the ensemble (or diff) and, as App. P reads it, by each voter alone ' +
      '(voter:ID rows; invalid answers left out)',
    kind === 'harmful'
      ? 'over-trust includes its evidence re-weighting sub-mode (§3.3, App. A.4)'
      : 'helpful flips: lucky deference is App. F’s over-trust on items the uncued judge got wrong',
  ];
  if (unlabelled)
    notes.push(`${unlabelled} ${kind} flips are not labelled yet: run cuelab classify STUDY`);
  if (flips.length === 0) notes.push(`this study has no ${kind} flips`);
  const simulated = flips.some((flip) => flip.simulated);
  return {
    name: kind === 'harmful' ? 'mechanisms' : 'mechanisms-helpful',
    title:
      kind === 'harmful'
        ? 'Harmful-flip mechanisms per judge (Fig. 5, Fig. 17)'
        : 'Helpful-flip mechanisms (Fig. 15)',
    columns,
    rows,
    notes: simulated ? [SIMULATED_NOTE, ...notes] : notes,
    simulated,
    reps: flips.length,
  };
}
