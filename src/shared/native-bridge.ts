/**
 * What the Electron preload exposes as `window.cuelab`: the engine's address and a few named
 * native calls, nothing generic (CONVENTIONS.md, "A narrow preload"). In a browser session
 * `window.cuelab` is absent and the renderer falls back to downloads and plain links.
 */
import type { EngineAddress } from './lab-client';

/** A file-type filter for the native dialogs. */
export interface FileFilter {
  /** Label shown in the dialog, e.g. "Study spec". */
  name: string;
  /** Extensions without the dot, e.g. ["json", "yaml"]. */
  extensions: string[];
}

/** Why the engine address changed: first start, or a restart after an unexpected exit. */
export interface EngineChange {
  /** The address to use from now on. */
  address: EngineAddress;
  /** How many times the shell has restarted the engine since the app started. */
  restarts: number;
  /** Why the previous engine stopped, when this is a restart. */
  reason?: string;
}

/** The preload's surface, `window.cuelab`. */
export interface NativeBridge {
  /** Always 'electron' when the preload is present. */
  readonly shell: 'electron';
  /** The current engine address (waits until the engine is ready). */
  getEngine(): Promise<EngineChange>;
  /** Calls `listener` each time the shell restarts the engine; returns an unsubscribe. */
  onEngineChange(listener: (change: EngineChange) => void): () => void;
  /** Shows the native open dialog; resolves to the chosen path's text content, or null. */
  openFile(options: {
    title: string;
    filters: FileFilter[];
  }): Promise<{ path: string; text: string } | null>;
  /** Shows the native save dialog and writes `data`; resolves to the path, or null if cancelled. */
  saveFile(options: {
    title: string;
    defaultName: string;
    filters: FileFilter[];
    data: string | Uint8Array;
  }): Promise<string | null>;
  /** Opens an http(s) link in the system browser; other schemes are refused. */
  openExternal(url: string): Promise<boolean>;
  /**
   * Keeps an API key with the OS keychain (Electron safeStorage) so the engine gets it at every
   * start; an empty value forgets it. False when the OS offers no encryption.
   */
  storeSecret(name: string, value: string): Promise<boolean>;
}

/** IPC channel names between preload and the shell; only the bridge modules use them. */
export const nativeChannels = {
  getEngine: 'cuelab:get-engine',
  engineChanged: 'cuelab:engine-changed',
  openFile: 'cuelab:open-file',
  saveFile: 'cuelab:save-file',
  openExternal: 'cuelab:open-external',
  storeSecret: 'cuelab:store-secret',
} as const;
