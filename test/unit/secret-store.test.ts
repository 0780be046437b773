import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretStore, type SafeStorageLike } from '../../src/main/app/secret-store';
import { createSecrets } from '../../src/main/engine/api/secrets';
import { makeTempDir } from '../helpers/temp-dir';

// Only key-shaped names are kept, and a keyring-less Linux is said so.
/** A reversible stand-in for safeStorage with a chosen backend. */
function fakeSafeStorage(backend: string, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => Buffer.from(`enc:${text}`),
    decryptString: (data) => data.toString().replace(/^enc:/, ''),
    getSelectedStorageBackend: () => backend,
  };
}

describe('the desktop key store', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => dir.remove());
  const file = () => join(dir.path, 'keys.json');

  it.each([
    'NODE_OPTIONS',
    'PATH',
    'LD_PRELOAD',
    'ELECTRON_RUN_AS_NODE',
    'HOME',
    'DYLD_INSERT_LIBRARIES',
  ])('refuses to keep %s', (name) => {
    const store = createSecretStore({
      folder: dir.path,
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      platform: 'linux',
    });
    expect(store.store(name, '--require /tmp/evil.js')).toMatchObject({
      stored: false,
      reason: expect.stringContaining('not a key variable name') as unknown,
    });
    expect(existsSync(file())).toBe(false);
  });

  it('keeps key names encrypted, 0600, and loads them back', () => {
    const store = createSecretStore({
      folder: dir.path,
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      platform: 'linux',
    });
    expect(store.store('ANTHROPIC_API_KEY', 'sk-ant-1')).toEqual({ stored: true });
    expect(store.store('HF_TOKEN', 'hf-2')).toEqual({ stored: true });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(readFileSync(file(), 'utf8')).not.toContain('sk-ant-1');
    expect(store.load()).toEqual({ ANTHROPIC_API_KEY: 'sk-ant-1', HF_TOKEN: 'hf-2' });
  });

  it('says so on Linux without a keyring instead of storing under a fixed password', () => {
    const store = createSecretStore({
      folder: dir.path,
      safeStorage: fakeSafeStorage('basic_text'),
      platform: 'linux',
    });
    const outcome = store.store('OPENAI_API_KEY', 'sk-3');
    expect(outcome).toMatchObject({ stored: false });
    expect(!outcome.stored && outcome.reason).toMatch(/no keyring .* not saved/);
    expect(existsSync(file())).toBe(false);
  });

  it('never loads a planted non-key entry', () => {
    const keyring = fakeSafeStorage('kwallet5');
    const store = createSecretStore({ folder: dir.path, safeStorage: keyring, platform: 'linux' });
    store.store('OPENAI_API_KEY', 'sk-4');
    const planted = JSON.parse(readFileSync(file(), 'utf8')) as Record<string, string>;
    planted.NODE_OPTIONS = keyring.encryptString('--require /tmp/evil.js').toString('base64');
    writeFileSync(file(), JSON.stringify(planted));
    expect(store.load()).toEqual({ OPENAI_API_KEY: 'sk-4' });
  });

  it('the engine takes session keys under key names only', () => {
    const secrets = createSecrets({});
    expect(() => secrets.set('NODE_OPTIONS', 'x')).toThrow(/not a key variable name/);
    expect(secrets.set('ANTHROPIC_API_KEY', 'sk-5')).toEqual({
      name: 'ANTHROPIC_API_KEY',
      set: true,
    });
    expect(secrets.env().NODE_OPTIONS).toBeUndefined();
  });
});
