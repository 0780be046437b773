/**
 * LabApi handlers for the connection check (lab-api/providers.ts): the window's Settings runs
 * the same check as `cuelab providers check`, stores it where a study's launch reads it, and
 * lists what is stored.
 */
import { dirname } from 'node:path';
import { EngineError } from '../errors';
import {
  checkProvider,
  combineTrust,
  endpointProblem,
  listProviderChecks,
  modelSettingsSchema,
  saveProviderCheck,
} from '../providers';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The provider handlers. */
export function providerHandlers(
  context: Pick<HandlerContext, 'store' | 'secrets' | 'trust'>,
): DomainHandlers<'checkProvider' | 'listProviderChecks'> {
  const workspaceDir = () => dirname(context.store.path);
  return {
    checkProvider: async (request) => {
      const parsed = modelSettingsSchema.safeParse(request);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new EngineError(
          'bad_request',
          `${String(issue?.path[0] ?? 'provider')}: ${issue?.message ?? 'not valid'}`,
        );
      }
      const settings = parsed.data;
      // Naming the address in the check is consent for this check (as --base-url is).
      const trust = combineTrust(context.trust(), {
        endpoints: settings.baseUrl ? [settings.baseUrl] : [],
        keyEnvNames: settings.apiKeyEnv ? [settings.apiKeyEnv] : [],
      });
      const problem = endpointProblem(settings, trust);
      if (problem) throw new EngineError('bad_request', problem);
      const check = await checkProvider(settings, context.secrets.env());
      saveProviderCheck(workspaceDir(), check);
      return check;
    },
    listProviderChecks: () => listProviderChecks(workspaceDir()),
  };
}
