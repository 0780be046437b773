/**
 * App. P's Table 10 as a report table: each classifier (every voter, the ensemble, the diff)
 * against each annotator (κ) and against gold (accuracy and κ), overall and per dataset, with
 * the human–human agreement in the notes. Same shape as analysis/table-model.ts ReportTable.
 */
import { SIMULATED_NOTE, type ReportColumn, type ReportRow } from '../../analysis';
import { type Store } from '../../store';
import { studyIsSimulated } from '../../store/faces/studies';
import type { FlipKind } from '../../mechanism-labels';
import type { AgreementSummary } from './report';
import { agreementForStudy, type StudyAgreement, type StudyAgreementOptions } from './study';

/** The agreement table. */
export interface AgreementTable {
  readonly name: 'mechanism-agreement';
  readonly title: string;
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly ReportRow[];
  readonly notes: readonly string[];
  readonly simulated: boolean;
  /** Flipped reps behind the table. */
  readonly reps: number;
}

const kappaText = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

function rowsOf(
  dataset: string,
  summary: AgreementSummary,
  raters: readonly string[],
): ReportRow[] {
  return summary.classifiers.map((score) => ({
    dataset,
    classifier: score.source,
    n: score.n,
    accuracy: score.accuracy === null ? null : score.accuracy * 100,
    kappa: score.kappa,
    ...Object.fromEntries(raters.map((rater) => [`kappa_${rater}`, score.perRater[rater] ?? null])),
  }));
}

function humanNotes(scope: string, summary: AgreementSummary): string[] {
  if (summary.pairwise.length === 0) return [];
  const pairs = summary.pairwise
    .map((pair) => `${pair.first}–${pair.second} ${kappaText(pair.kappa)} (n ${pair.n})`)
    .join(', ');
  const unanimous = summary.unanimous === null ? 'n/a' : `${(summary.unanimous * 100).toFixed(1)}%`;
  const gold = Object.entries(summary.goldDistribution)
    .map(([label, count]) => `${label} ${count}`)
    .join(', ');
  return [
    `${scope}: pairwise Cohen's κ ${pairs}; Fleiss' κ ${kappaText(summary.fleiss)} over ${summary.fullyRated} fully rated flips; ${unanimous} unanimous; gold on ${summary.gold} of ${summary.cases} (${gold || 'none'}).`,
  ];
}

/** The table for computed agreement. */
export function agreementTable(agreement: StudyAgreement, simulated: boolean): AgreementTable {
  const { raters, goldSource } = agreement;
  const columns: ReportColumn[] = [
    { key: 'dataset', label: 'dataset' },
    { key: 'classifier', label: 'classifier' },
    ...raters.map((rater) => ({
      key: `kappa_${rater}`,
      label: `κ vs ${rater}`,
      unit: 'r' as const,
    })),
    { key: 'n', label: 'n' },
    { key: 'accuracy', label: 'accuracy vs gold %', unit: '%' },
    { key: 'kappa', label: 'κ vs gold', unit: 'r' },
  ];
  const rows = [
    ...rowsOf('all', agreement.overall, raters),
    ...agreement.byDataset.flatMap((entry) => rowsOf(entry.dataset, entry.summary, raters)),
  ];
  const gold =
    goldSource === null
      ? `Gold: the majority of ${raters.join(', ') || 'no annotator'} (App. P: 2 of 3).`
      : `Gold: the ${goldSource} labels.`;
  const notes = [
    gold,
    ...humanNotes('All datasets', agreement.overall),
    ...agreement.byDataset.flatMap((entry) => humanNotes(entry.dataset, entry.summary)),
  ];
  if (agreement.overall.cases === 0) notes.push('This study has no flipped reps with labels.');
  return {
    name: 'mechanism-agreement',
    title: 'Mechanism labels: agreement with annotators and gold (App. P, Table 10)',
    columns,
    rows,
    notes: simulated ? [SIMULATED_NOTE, ...notes] : notes,
    simulated,
    reps: agreement.overall.cases,
  };
}

/** The agreement table of a stored study (options as agreementForStudy; kind e.g. 'harmful'). */
export function agreementReportTable(
  store: Store,
  studyId: string,
  options: StudyAgreementOptions & { kind?: FlipKind } = {},
): AgreementTable {
  const simulated = studyIsSimulated(store, studyId);
  return agreementTable(agreementForStudy(store, studyId, options), simulated);
}
