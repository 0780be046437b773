/**
 * API keys in the desktop app, kept with Electron `safeStorage` (the OS keychain or its
 * equivalent) in the user-data folder — never in the workspace database, logs or exports
 * (ARCHITECTURE.md, "Fixed points"). The shell hands them to the engine in its environment,
 * so only key-shaped names are kept: a stored `NODE_OPTIONS` or `LD_PRELOAD`
 * would run code in the next engine. On Linux without a keyring Chromium falls back to the
 * `basic_text` backend, which encrypts under a fixed, public password; that is no protection,
 * so keys are then not stored and the caller is told why. No electron import here: the shell
 * passes `safeStorage` in, and tests pass a stand-in.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isKeyName, keyNameProblem } from '../../shared/secrets';

/** The parts of Electron's `safeStorage` the store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(data: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?: () => string;
}

/** Where and how keys are kept. */
export interface SecretStoreOptions {
  /** The app's user-data folder (`app.getPath('userData')`). */
  folder: string;
  safeStorage: SafeStorageLike;
  platform: NodeJS.Platform;
}

/** The outcome of keeping a key. */
export type StoreOutcome = { stored: true } | { stored: false; reason: string };

/** The keys file, read and written through safeStorage. */
export interface SecretStore {
  /** The stored keys, decrypted; empty when the OS offers no real encryption. */
  load(): Record<string, string>;
  /** Encrypts and stores a key (an empty value removes it), or says why not. */
  store(name: string, value: string): StoreOutcome;
}

/** Why safeStorage cannot keep a secret here, or undefined when it can. */
export function encryptionProblem(options: SecretStoreOptions): string | undefined {
  const { safeStorage, platform } = options;
  if (!safeStorage.isEncryptionAvailable())
    return 'this system offers no encryption for stored keys';
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text')
    return (
      'this Linux session has no keyring (GNOME Keyring or KWallet), so Electron could only ' +
      'hide keys under a fixed password; the key is used for this session and not saved'
    );
  return undefined;
}

/** A store in `options.folder`/keys.json. */
export function createSecretStore(options: SecretStoreOptions): SecretStore {
  const path = join(options.folder, 'keys.json');
  const read = (): Record<string, string> => {
    if (!existsSync(path)) return {};
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, string>)
        : {};
    } catch {
      return {};
    }
  };
  return {
    load() {
      if (encryptionProblem(options)) return {};
      const out: Record<string, string> = {};
      for (const [name, encrypted] of Object.entries(read())) {
        if (!isKeyName(name) || typeof encrypted !== 'string') continue;
        try {
          out[name] = options.safeStorage.decryptString(Buffer.from(encrypted, 'base64'));
        } catch {
          // A key encrypted under another OS user cannot be read; it is skipped, not guessed.
        }
      }
      return out;
    },
    store(name, value) {
      const nameProblem = keyNameProblem(name);
      if (nameProblem) return { stored: false, reason: nameProblem };
      const problem = encryptionProblem(options);
      if (problem) return { stored: false, reason: problem };
      const keys = read();
      if (value === '') delete keys[name];
      else keys[name] = options.safeStorage.encryptString(value).toString('base64');
      writeFileSync(path, JSON.stringify(keys, null, 2), { mode: 0o600 });
      return { stored: true };
    },
  };
}
