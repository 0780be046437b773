/**
 * A LabApi client that calls the handlers of an engine in this process: the CLI's way in when
 * no `--engine` is given. Each answer makes the same trip as over HTTP (dispatch, JSON, the
 * contract's parse in lab-client.ts), so a command prints the same in-process and remote.
 */
import { labMethods, type LabApi, type LabMethod, type LabRequest } from '../../../shared/lab-api';
import { parseResult } from '../../../shared/lab-client';
import { dispatchLabCall } from './dispatch';
import type { LabHandlers } from './handlers';

/** A typed LabApi over `handlers`, without a socket in between. */
export function createInProcessClient(handlers: LabHandlers): LabApi {
  const client: Partial<Record<LabMethod, unknown>> = {};
  for (const method of Object.keys(labMethods) as LabMethod[]) {
    client[method] = async (request: LabRequest<typeof method>) => {
      const result = await dispatchLabCall(handlers, method, request);
      return parseResult(method, JSON.parse(JSON.stringify(result)) as unknown);
    };
  }
  return client as LabApi;
}
