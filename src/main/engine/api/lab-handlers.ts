/**
 * Every LabApi handler, one domain file each (the same domains as src/shared/lab-api/): the
 * engine builds them here from one context, so a new domain is a contract file, a handler file
 * and a line in each map.
 */
import { bundleHandlers } from './bundle-handlers';
import { compareHandlers } from './compare-handlers';
import { environmentHandlers } from './environment-handlers';
import type { HandlerContext, LabHandlers } from './handlers';
import { importHandlers } from './import-handlers';
import { labelHandlers } from './label-handlers';
import { mechanismHandlers } from './mechanism-handlers';
import { promptHandlers } from './prompt-handlers';
import { providerHandlers } from './provider-handlers';
import { cueFamilyHandlers } from './cue-family-handlers';
import { repHandlers } from './rep-handlers';
import { reportHandlers } from './report-handlers';
import { secretHandlers } from './secret-handlers';
import { studyHandlers } from './study-handlers';
import { suiteHandlers } from './suite-handlers';
import { workspaceHandlers } from './workspace-handlers';

/** One handler per LabApi method over the engine in `context`. */
export function createLabHandlers(context: HandlerContext): LabHandlers {
  return {
    ...workspaceHandlers(context),
    ...studyHandlers(context),
    ...suiteHandlers(context),
    ...promptHandlers(context),
    ...cueFamilyHandlers(context),
    ...reportHandlers(context),
    ...compareHandlers(context),
    ...repHandlers(context),
    ...mechanismHandlers(context),
    ...labelHandlers(context),
    ...bundleHandlers(context),
    ...environmentHandlers(context),
    ...secretHandlers(context),
    ...providerHandlers(context),
    ...importHandlers(context),
  };
}
