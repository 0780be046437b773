/**
 * LabApi handlers for the exact prompt of a rep (lab-api/prompts.ts): of a workspace suite's
 * item (the builder), or of an item of a suite file on this machine (`cuelab prompt`).
 */
import { basename } from 'node:path';
import { repConditionSchema } from '../../../shared/rep-condition';
import { EngineError } from '../errors';
import { loadWorkspaceFamilies, previewPrompt } from '../judge';
import { getSuiteItem, getSuiteTaxonomies } from '../store/faces/suites';
import { builtinSuiteIds, ensureSuite, loadSuiteFile } from '../suites';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The prompt handlers. */
export function promptHandlers(
  context: Pick<HandlerContext, 'store' | 'workspace'>,
): DomainHandlers<'previewPrompt' | 'previewItemPrompt'> {
  const { store } = context;
  // A family file dropped into the workspace since the last look is previewable at once.
  const refresh = () => loadWorkspaceFamilies(context.workspace.path);
  return {
    previewPrompt: (request) => {
      refresh();
      return previewPrompt(
        getSuiteItem(store, request.suiteId, request.itemId),
        getSuiteTaxonomies(store, request.suiteId),
        request.condition ?? repConditionSchema.parse({}),
      );
    },
    previewItemPrompt: ({ suiteId, suitePath, itemId, condition }) => {
      refresh();
      const chosen = condition ?? repConditionSchema.parse({});
      if (suitePath !== undefined) {
        const suite = loadSuiteFile(suitePath);
        const item = suite.items.find((candidate) => candidate.id === itemId);
        if (!item)
          throw new EngineError('not_found', `${basename(suitePath)} has no item "${itemId}".`);
        return previewPrompt(item, suite.taxonomies, chosen);
      }
      const id = suiteId as string;
      // A built-in suite is imported into the workspace on first use.
      if ((builtinSuiteIds as readonly string[]).includes(id)) ensureSuite(store, id);
      return previewPrompt(getSuiteItem(store, id, itemId), getSuiteTaxonomies(store, id), chosen);
    },
  };
}
