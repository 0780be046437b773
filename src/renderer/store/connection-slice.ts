import type { StateCreator } from 'zustand';
import type { HealthInfo } from '../../shared/lab-api';
import type { EngineAddress } from '../../shared/lab-client';
import type { AllSlices } from './types';

/** How the window stands with the engine. */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * The link to the engine, written only by lib/engine-connection.ts. The store holds what the
 * indicator shows; the engine's data lives in the engine.
 */
export interface ConnectionSlice {
  /** Connecting until the first health answer and event socket; disconnected while retrying. */
  status: ConnectionStatus;
  /** Where the engine is; null until known. */
  address: EngineAddress | null;
  /** True when no engine address can be found: the page was opened without a token. */
  addressMissing: boolean;
  /** The engine's last health answer. */
  health: HealthInfo | null;
  /** How often the desktop shell restarted the engine. */
  restarts: number;
  /** The last connection problem, in words a person can act on. */
  lastError: string | null;
  /** Starts using an engine address (the first, or a restarted engine's). */
  setEngineAddress: (address: EngineAddress, restarts: number) => void;
  /** The engine answered health and the event socket is open. */
  setConnected: (health: HealthInfo) => void;
  /** The engine greeted the event socket; keeps version and workspace current. */
  updateHealth: (health: Partial<HealthInfo>) => void;
  /** The engine stopped answering or the socket closed; a retry is scheduled. */
  setDisconnected: (problem: string) => void;
  /** No address can be found; `problem` says why when a known token stopped working. */
  setAddressMissing: (problem: string | null) => void;
}

export const createConnectionSlice: StateCreator<AllSlices, [], [], ConnectionSlice> = (set) => ({
  status: 'connecting',
  address: null,
  addressMissing: false,
  health: null,
  restarts: 0,
  lastError: null,
  setEngineAddress: (address, restarts) =>
    set({ address, restarts, status: 'connecting', addressMissing: false }),
  setConnected: (health) => set({ status: 'connected', health, lastError: null }),
  updateHealth: (update) =>
    set((state) => (state.health ? { health: { ...state.health, ...update } } : {})),
  setDisconnected: (problem) => set({ status: 'disconnected', lastError: problem }),
  setAddressMissing: (problem) =>
    set({ addressMissing: true, address: null, status: 'disconnected', lastError: problem }),
});
