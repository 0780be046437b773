/**
 * LabApi handlers for a study packed as files (lab-api/bundles.ts): a CueLab bundle out (every
 * key the engine holds redacted) and in, and Inspect AI logs. The work runs on the engine's
 * files worker (file-work.ts; workers/file-jobs.ts); a bundle opened there is published here.
 * Nothing here writes where a caller points: what is exported comes back as data.
 */
import { encodedFromFilesWorker, inFilesWorker } from './file-work';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The bundle handlers. */
export function bundleHandlers(
  context: Pick<HandlerContext, 'workers' | 'secrets' | 'publish' | 'onStudyChanged'>,
): DomainHandlers<'exportBundle' | 'openBundle' | 'exportInspect'> {
  return {
    exportBundle: ({ studyId }) => encodedFromFilesWorker(context, 'exportBundle', { studyId }),
    openBundle: async ({ base64, path, replace }) => {
      const opened = await inFilesWorker(context, 'openBundle', {
        ...(path === undefined ? { base64: base64 ?? '' } : { path }),
        ...(replace ? { replace } : {}),
      });
      // The worker's connection committed it: this thread's reads (and caches keyed on the
      // database's revision) see the study now.
      context.onStudyChanged(opened.studyId);
      return opened;
    },
    exportInspect: ({ studyId, format = 'json', log }) =>
      encodedFromFilesWorker(context, 'exportInspect', {
        studyId,
        format,
        ...(log === undefined ? {} : { log }),
      }),
  };
}
