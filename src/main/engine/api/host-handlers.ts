/**
 * LabApi handlers for Docker hosts. Status comes from the running runner's pool when there is
 * one (so in-flight and finished counts are live), else from a pool made for the look.
 */
import { DockerHostPool } from '../environments';
import { type Store } from '../store';
import { listDockerHosts, removeDockerHost, saveDockerHost } from '../store/faces/machine';
import type { LabHandlers } from './handlers';

/** The host handlers of an engine; `runningPool` is the runner's pool while it runs. */
export function hostHandlers(
  store: Store,
  runningPool: () => DockerHostPool | null,
): Pick<LabHandlers, 'listDockerHosts' | 'saveDockerHost' | 'removeDockerHost'> {
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
