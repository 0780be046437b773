/** LabApi handlers for API keys (lab-api/secrets.ts), over the session's keys (secrets.ts). */
import type { DomainHandlers, HandlerContext } from './handlers';

/** The secret handlers. */
export function secretHandlers(
  context: Pick<HandlerContext, 'secrets'>,
): DomainHandlers<'setSecret' | 'listSecrets'> {
  const { secrets } = context;
  return {
    setSecret: ({ name, value }) => secrets.set(name, value),
    listSecrets: () => secrets.list(),
  };
}
