/**
 * Agreement for a stored study (App. P, Table 10): its flipped reps with every label stored
 * for them, fed to the pure agreement functions. By default the raters are the human
 * annotators who labelled the study, the classifiers every voter, the ensemble and the diff,
 * and gold the annotators' majority; a study without annotators but with synthetic-judge
 * truth uses that truth as gold.
 */
import { type Store } from '../../store';
import { listStudyLabels } from '../../store/faces/labels';
import { findFlippedReps } from '../flipped';
import type { FlipKind } from '../../mechanism-labels';
import { agreementReport, type AgreementReport, type LabelledCase } from './report';

/** Which flips and sources to compare; every field optional. */
export interface StudyAgreementOptions {
  /** Only harmful (Table 10) or only helpful flips. */
  kind?: FlipKind;
  raters?: string[];
  classifiers?: string[];
  goldSource?: string;
}

/** The report and the choices it was computed with. */
export interface StudyAgreement extends AgreementReport {
  raters: string[];
  classifiers: string[];
  goldSource: string | null;
}

/** The flipped reps of a study as labelled cases (every source that labelled them). */
export function labelledCases(store: Store, studyId: string, kind?: FlipKind): LabelledCase[] {
  const flips = findFlippedReps(store, studyId).filter((flip) => !kind || flip.kind === kind);
  const labels = new Map<string, Record<string, string>>();
  for (const label of listStudyLabels(store, studyId)) {
    const entry = labels.get(label.repId) ?? {};
    entry[label.source] = label.label;
    labels.set(label.repId, entry);
  }
  return flips.map((flip) => ({
    repId: flip.repId,
    dataset: flip.dataset,
    labels: labels.get(flip.repId) ?? {},
  }));
}

/** Agreement of a study's labels (defaults in the module comment). */
export function agreementForStudy(
  store: Store,
  studyId: string,
  options: StudyAgreementOptions = {},
): StudyAgreement {
  const cases = labelledCases(store, studyId, options.kind);
  const sources = [...new Set(cases.flatMap((entry) => Object.keys(entry.labels)))].sort();
  const raters = options.raters ?? sources.filter((source) => source.startsWith('human:'));
  const classifiers =
    options.classifiers ??
    [...sources.filter((source) => source.startsWith('voter:')), 'ensemble', 'diff'].filter(
      (source) => sources.includes(source),
    );
  const goldSource =
    options.goldSource ?? (raters.length === 0 && sources.includes('truth') ? 'truth' : undefined);
  const report = agreementReport(cases, {
    raters,
    classifiers,
    ...(goldSource === undefined ? {} : { goldSource }),
  });
  return { ...report, raters, classifiers, goldSource: goldSource ?? null };
}
