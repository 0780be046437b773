/**
 * LabApi handlers for import (lab-api/import.ts): `importRuns` reads a path on this machine
 * through the same importers as `cuelab suite import`, and stores the suite only when asked;
 * `uploadImportFiles` stages what was dropped on the window as such a path; `importResults`
 * stores another harness's per-rep verdicts as a study.
 */
import { importResultsFile } from '../reports';
import { saveSuite } from '../store/faces/suites';
import { importRuns, stageUpload } from '../suites';
import { EngineError } from '../errors';
import { addImportFolder, importFolders, removeImportFolder } from '../import-folders';
import { duplicateSuites } from './import-duplicates';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The import handlers. */
export function importHandlers(
  context: Pick<HandlerContext, 'store' | 'workspace' | 'onStudyChanged' | 'onSuiteSaved'>,
): DomainHandlers<
  | 'importRuns'
  | 'uploadImportFiles'
  | 'importResults'
  | 'listImportFolders'
  | 'addImportFolder'
  | 'removeImportFolder'
> {
  const { store, onSuiteSaved } = context;
  const workspace = context.workspace.path;
  return {
    listImportFolders: () => importFolders(workspace),
    addImportFolder: ({ path }) => addImportFolder(workspace, path),
    removeImportFolder: ({ path }) => removeImportFolder(workspace, path),
    importResults: ({ path, name, format }) => {
      const summary = importResultsFile(store, path, {
        ...(name === undefined ? {} : { name }),
        ...(format === undefined ? {} : { format }),
      });
      context.onStudyChanged(summary.studyId);
      return { ...summary };
    },
    uploadImportFiles: ({ uploadId, name, pieces }) => stageUpload(uploadId, name, pieces),
    importRuns: (request) => {
      const outcome = importRuns({
        path: request.path,
        format: request.format,
        ...(request.name ? { name: request.name } : {}),
        ...(request.tasksDir ? { tasksDir: request.tasksDir } : {}),
        ...(request.toolOutputLimit !== undefined
          ? { toolOutputLimit: request.toolOutputLimit }
          : {}),
        keepFlagged: request.keepFlagged ?? false,
      });
      const duplicates = duplicateSuites(store, outcome.suite);
      if (request.save && duplicates.length > 0 && !request.allowDuplicate) {
        throw new EngineError(
          'bad_request',
          `${duplicates.join('; ')}. Nothing was stored. Import under that suite's name to ` +
            'replace it, or allow the duplicate (--allow-duplicate; in the window, "Import even if ' +
            'another suite holds these runs").',
        );
      }
      if (request.save) {
        saveSuite(store, outcome.suite, 'imported');
        onSuiteSaved(outcome.suite.id);
      }
      const digests = new Map(
        outcome.suite.items.map((item) => [item.id, item.provenance?.sha256 ?? '']),
      );
      return {
        suiteId: outcome.suite.id,
        suiteName: outcome.suite.name,
        saved: request.save,
        imported: outcome.imported.map((entry) => ({
          ...entry,
          sha256: digests.get(entry.id) ?? '',
        })),
        skipped: outcome.skipped,
        warnings: [...duplicates, ...outcome.warnings],
      };
    },
  };
}
