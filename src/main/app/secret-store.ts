/**
 * API keys in the desktop app, kept with Electron `safeStorage` (the OS keychain or its
 * equivalent) in the user-data folder — never in the workspace database, logs or exports
 * (ARCHITECTURE.md, "Fixed points"). The shell hands them to the engine in its environment.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, safeStorage } from 'electron';

const keyName = /^[A-Z_][A-Z0-9_]*$/;

function storePath(): string {
  return join(app.getPath('userData'), 'keys.json');
}

function readStore(): Record<string, string> {
  if (!existsSync(storePath())) return {};
  try {
    const parsed = JSON.parse(readFileSync(storePath(), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The stored keys, decrypted; empty when the OS offers no encryption. */
export function loadStoredSecrets(): Record<string, string> {
  if (!safeStorage.isEncryptionAvailable()) return {};
  const out: Record<string, string> = {};
  for (const [name, encrypted] of Object.entries(readStore())) {
    if (!keyName.test(name)) continue;
    try {
      out[name] = safeStorage.decryptString(Buffer.from(encrypted, 'base64'));
    } catch {
      // A key encrypted under another OS user cannot be read; it is skipped, not guessed.
    }
  }
  return out;
}

/** Encrypts and stores a key (an empty value removes it); false when encryption is unavailable. */
export function storeSecret(name: string, value: string): boolean {
  if (!keyName.test(name) || !safeStorage.isEncryptionAvailable()) return false;
  const store = readStore();
  if (value === '') delete store[name];
  else store[name] = safeStorage.encryptString(value).toString('base64');
  writeFileSync(storePath(), JSON.stringify(store, null, 2), { mode: 0o600 });
  return true;
}
