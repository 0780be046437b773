/**
 * LabApi handlers for import (lab-api/import.ts): `importRuns` reads a path on this machine
 * through the same importers as `cuelab suite import`, and stores the suite only when asked;
 * `uploadImportFiles` stages what was dropped on the window as such a path; `importResults`
 * stores another harness's per-rep verdicts as a study. The reading, storing and writing run
 * on the files worker (file-work.ts).
 */
import { importFolders, addImportFolder, removeImportFolder } from '../import-folders';
import { stageUpload } from '../suites';
import { inFilesWorker } from './file-work';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The import handlers. */
export function importHandlers(
  context: Pick<
    HandlerContext,
    'workspace' | 'workers' | 'secrets' | 'publish' | 'onStudyChanged' | 'onSuiteSaved'
  >,
): DomainHandlers<
  | 'importRuns'
  | 'uploadImportFiles'
  | 'importResults'
  | 'listImportFolders'
  | 'addImportFolder'
  | 'removeImportFolder'
> {
  const { onSuiteSaved } = context;
  const workspace = context.workspace.path;
  return {
    listImportFolders: () => importFolders(workspace),
    addImportFolder: ({ path }) => addImportFolder(workspace, path),
    removeImportFolder: ({ path }) => removeImportFolder(workspace, path),
    importResults: async ({ path, name, format }) => {
      const summary = await inFilesWorker(context, 'importResults', {
        path,
        ...(name === undefined ? {} : { name }),
        ...(format === undefined ? {} : { format }),
      });
      context.onStudyChanged(summary.studyId);
      return summary;
    },
    // The uploads are kept here; their pieces are decoded and written on the files worker.
    uploadImportFiles: ({ uploadId, name, pieces }) =>
      stageUpload(uploadId, name, pieces, (upload, staged) =>
        inFilesWorker(context, 'uploadImportFiles', { upload, pieces: staged }),
      ),
    // Read (and, when asked, stored) on the files worker; a stored suite is published here.
    importRuns: async (request) => {
      const answer = await inFilesWorker(context, 'importRuns', { request });
      if (answer.saved) onSuiteSaved(answer.suiteId);
      return answer;
    },
  };
}
