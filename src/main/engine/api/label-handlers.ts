/**
 * LabApi handlers for labels (lab-api/labels.ts): the blind labelling queue and a human's label
 * from the Annotate screen, and labels in and out as CSV for `cuelab labels`. An exported CSV
 * comes back as text: the CLI writes it where the user pointed.
 */
import { inFilesWorker } from './file-work';
import { labellingQueue, saveHumanLabel } from '../metajudge';
import { jobStudyOfRep } from '../store/faces/reps';
import type { DomainHandlers, HandlerContext } from './handlers';
import { readNamedFile } from './read-file';

type LabelHandlers = DomainHandlers<
  'labellingQueue' | 'saveHumanLabel' | 'exportLabels' | 'importLabels'
>;

/** The label handlers. */
export function labelHandlers(
  context: Pick<HandlerContext, 'store' | 'onStudyChanged' | 'workers' | 'secrets' | 'publish'>,
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
    // A study's labels can run to tens of thousands of rows: written on the files worker.
    exportLabels: ({ studyId, all, sheet }) =>
      inFilesWorker(context, 'exportLabels', {
        studyId,
        ...(all === undefined ? {} : { all }),
        ...(sheet === undefined ? {} : { sheet }),
      }),
    // Read here, where a served request's reads are confined to the roots it may read (the
    // check is on the open file: engine/confined-read.ts); checked and stored (all or nothing,
    // bad rows named) on the files worker.
    importLabels: async ({ path, fileName }) => {
      const name = fileName ?? path;
      return await inFilesWorker(context, 'importLabels', {
        text: readNamedFile(path, name),
        name,
      });
    },
  };
}
