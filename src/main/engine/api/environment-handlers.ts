/**
 * LabApi handlers for the judge environments (lab-api/environment.ts): Docker and image status
 * and bootstraps (environment-service.ts), and Docker hosts. Host status comes from the running
 * runner's pool when there is one (so in-flight and finished counts are live), else from a pool
 * made for the look.
 */
import { DockerHostPool } from '../environments';
import { listDockerHosts, removeDockerHost, saveDockerHost } from '../store/faces/machine';
import type { DomainHandlers, HandlerContext } from './handlers';

type EnvironmentHandlers = DomainHandlers<
  'environmentStatus' | 'startBootstrap' | 'listDockerHosts' | 'saveDockerHost' | 'removeDockerHost'
>;

/** The environment handlers. */
export function environmentHandlers(
  context: Pick<HandlerContext, 'store' | 'environment' | 'runningPool'>,
): EnvironmentHandlers {
  const { store, environment, runningPool } = context;
  const status = () => {
    const configs = listDockerHosts(store);
    const pool = runningPool();
    if (pool) {
      pool.reconfigure(configs);
      return pool.status();
    }
    return new DockerHostPool(configs).status();
  };
  return {
    environmentStatus: () => environment.status(),
    startBootstrap: (request) => environment.startBootstrap(request),
    listDockerHosts: () => status(),
    saveDockerHost: (request) => {
      saveDockerHost(store, request);
      return status();
    },
    removeDockerHost: (request) => {
      removeDockerHost(store, request.id);
      return status();
    },
  };
}
