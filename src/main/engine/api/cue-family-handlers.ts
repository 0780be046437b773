/**
 * LabApi handlers for cue families (lab-api/cue-families.ts): the registry with the
 * workspace's folder re-read, and imports into that folder.
 */
import { basename } from 'node:path';
import { importCueFamily, listCueFamilies, loadWorkspaceFamilies, parseCueFamily } from '../judge';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The cue-family handlers. */
export function cueFamilyHandlers(
  context: Pick<HandlerContext, 'workspace'>,
): DomainHandlers<'listCueFamilies' | 'importCueFamily'> {
  const workspace = context.workspace.path;
  return {
    listCueFamilies: () => {
      const problems = loadWorkspaceFamilies(workspace);
      return { families: listCueFamilies(), problems };
    },
    importCueFamily: ({ text, name }) => {
      // Only the base name labels errors: a path the window sent is no place to write.
      const family = parseCueFamily(text, basename(name));
      importCueFamily(workspace, family);
      return { family };
    },
  };
}
