/**
 * LabApi handlers for labels (lab-api/labels.ts): the blind labelling queue and a human's label
 * from the Annotate screen, and labels in and out as CSV for `cuelab labels`. An exported CSV
 * comes back as text: the CLI writes it where the user pointed.
 */
import { exportLabelsCsv, importLabelsCsv, labelSheetCsv } from '../export';
import { labellingQueue, saveHumanLabel } from '../metajudge';
import { jobStudyOfRep } from '../store/faces/reps';
import type { DomainHandlers, HandlerContext } from './handlers';
import { readNamedFile } from './read-file';

type LabelHandlers = DomainHandlers<
  'labellingQueue' | 'saveHumanLabel' | 'exportLabels' | 'importLabels'
>;

/** The label handlers. */
export function labelHandlers(
  context: Pick<HandlerContext, 'store' | 'onStudyChanged'>,
): LabelHandlers {
  const { store } = context;
  return {
    labellingQueue: ({ studyId, annotator, kind }) =>
      labellingQueue(store, studyId, annotator, kind),
    saveHumanLabel: (input) => {
      saveHumanLabel(store, {
        repId: input.repId,
        annotator: input.annotator,
        label: input.label,
        ...(input.subMode ? { subMode: input.subMode } : {}),
        ...(input.rationale ? { rationale: input.rationale } : {}),
      });
      const study = jobStudyOfRep(store, input.repId);
      if (study) context.onStudyChanged(study);
      return { saved: true };
    },
    exportLabels: ({ studyId, all, sheet }) => {
      const text =
        sheet !== undefined
          ? labelSheetCsv(store, studyId, sheet)
          : exportLabelsCsv(store, studyId, { all: all ?? false });
      // CRLF rows after a header, the last one ended too.
      return { text, rows: text.split('\r\n').length - 2 };
    },
    importLabels: ({ path, fileName }) => {
      const name = fileName ?? path;
      return importLabelsCsv(store, readNamedFile(path, name), name);
    },
  };
}
