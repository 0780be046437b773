import type { StateCreator } from 'zustand';
import type { LabRequest, LabResponse } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { onLabEvent } from '../../lib/lab-events';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';
import { postgresName } from '../../../shared/substrates/postgres';
import type { BootstrapImageKind } from '../../../shared/lab-api/environment';

/** Docker and base-image status (`environmentStatus`). */
export type EnvironmentStatus = LabResponse<'environmentStatus'>;
/** A key the engine holds, shown only by its hint. */
export type SecretEntry = LabResponse<'listSecrets'>[number];

/** A stored connection check (`checkProvider`). */
export type ProviderCheck = LabResponse<'checkProvider'>;
/** What a connection check is asked to reach. */
export type ProviderCheckRequest = LabRequest<'checkProvider'>;

/** An image Settings can build. */
export type BootstrapImage = BootstrapImageKind;

/** One `env.bootstrap` event, as the progress list shows it. */
export interface BootstrapLine {
  message: string;
  done: boolean;
  error?: string;
  /** Absent: the base image. */
  image?: BootstrapImage;
}

/** Settings' view of the judge environments and the engine's keys. */
export interface EnvironmentSlice {
  environment: Loadable<EnvironmentStatus>;
  secrets: Loadable<SecretEntry[]>;
  /** Bootstrap progress since the window opened, newest last (at most 40 lines). */
  bootstrapLog: BootstrapLine[];
  loadEnvironment: () => Promise<void>;
  /** Asks the engine to build `image` (default the base image); progress arrives as events. */
  startBootstrap: (image?: BootstrapImage) => Promise<void>;
  loadSecrets: () => Promise<void>;
  /** Hands a key to the engine ('' forgets a session key); resolves to a problem, or null. */
  saveSecret: (name: string, value: string) => Promise<string | null>;
  /** Stored connection checks, newest first. */
  providerChecks: Loadable<ProviderCheck[]>;
  loadProviderChecks: () => Promise<void>;
  /** Runs a connection check; resolves to why it could not run, or null (the result is listed). */
  runProviderCheck: (request: ProviderCheckRequest) => Promise<string | null>;
}

const logLength = 40;

export const createEnvironmentSlice: StateCreator<AllSlices, [], [], EnvironmentSlice> = (
  set,
  get,
) => {
  let environmentRequest = 0;
  const client = () => {
    const address = get().address;
    return address ? labClientFor(address) : null;
  };
  // Bootstrap events may arrive while Settings is closed; the log keeps them for when it opens.
  onLabEvent('env.bootstrap', (event) => {
    set({ bootstrapLog: [...get().bootstrapLog, event].slice(-logLength) });
    if (event.done) void get().loadEnvironment();
  });
  return {
    environment: { state: 'idle' },
    secrets: { state: 'idle' },
    providerChecks: { state: 'idle' },
    bootstrapLog: [],
    loadEnvironment: async () => {
      const api = client();
      if (!api) return;
      const request = ++environmentRequest;
      const previous = loadedValue(get().environment);
      set({ environment: { state: 'loading', value: previous } });
      const result = await api.environmentStatus({});
      if (request !== environmentRequest) return;
      set({
        environment: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
    startBootstrap: async (image = 'base') => {
      const api = client();
      if (!api) return;
      const name = image === postgresName ? 'PostgreSQL image' : 'base image';
      set({
        bootstrapLog: [
          ...get().bootstrapLog,
          { message: `Asking the engine to build the ${name}…`, done: false, image },
        ].slice(-logLength),
      });
      const result = await api.startBootstrap({ image });
      environmentRequest += 1;
      set(
        result.ok
          ? { environment: { state: 'loaded', value: result.value } }
          : {
              bootstrapLog: [
                ...get().bootstrapLog,
                {
                  message: 'Bootstrap did not start.',
                  done: true,
                  error: result.error.message,
                  image,
                },
              ],
            },
      );
      // A build that finished before this answer arrived (the image was there already) made
      // the answer stale: its "building" is over, so ask again.
      const last = [...get().bootstrapLog]
        .reverse()
        .find((line) => (line.image ?? 'base') === image);
      if (result.ok && last?.done) await get().loadEnvironment();
    },
    loadSecrets: async () => {
      const api = client();
      if (!api) return;
      const previous = loadedValue(get().secrets);
      const result = await api.listSecrets({});
      set({
        secrets: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
    saveSecret: async (name, value) => {
      const api = client();
      if (!api) return 'The engine is not connected.';
      const result = await api.setSecret({ name, value });
      // In the desktop app the key is also kept with safeStorage for the engine's next start.
      const kept = result.ok && window.cuelab ? await window.cuelab.storeSecret(name, value) : true;
      await get().loadSecrets();
      if (!result.ok) return result.error.message;
      // Said, not hidden: without a keyring (or for a non-key name) the key is not saved.
      return kept || value === ''
        ? null
        : `${name} is set for this session only: this system cannot keep it encrypted (no keyring).`;
    },
    loadProviderChecks: async () => {
      const api = client();
      if (!api) return;
      const previous = loadedValue(get().providerChecks);
      const result = await api.listProviderChecks({});
      set({
        providerChecks: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
    runProviderCheck: async (request) => {
      const api = client();
      if (!api) return 'The engine is not connected.';
      const result = await api.checkProvider(request);
      await get().loadProviderChecks();
      return result.ok ? null : result.error.message;
    },
  };
};
