/**
 * API keys for this engine session. Keys come from the environment, or are handed over by the
 * window (Electron keeps them with safeStorage; a browser session hands them to the engine).
 * They live in memory only: never in the database, logs or exports, and never echoed back in
 * full (`list` shows the last four characters).
 */
import { EngineError } from '../errors';
import { endsLikeKeyName, keyNameProblem } from '../../../shared/secrets';
import { rememberKeys } from '../secrets';

/** The engine's keys. */
export interface Secrets {
  /** The environment the providers see: process environment plus session keys. */
  env: () => Readonly<Record<string, string | undefined>>;
  set: (name: string, value: string) => { name: string; set: boolean };
  list: () => { name: string; source: 'environment' | 'session'; hint: string }[];
}

/** Keys over `base` (usually process.env). An empty value removes a session key. */
export function createSecrets(base: Readonly<Record<string, string | undefined>>): Secrets {
  const session = new Map<string, string>();
  // Every key this engine is handed stays redacted from what it stores, even once unset.
  rememberKeys(base);
  return {
    env: () => ({ ...base, ...Object.fromEntries(session) }),
    set(name, value) {
      // Session keys join the providers' environment: only key-shaped names.
      const nameProblem = keyNameProblem(name);
      if (nameProblem) throw new EngineError('bad_request', `${nameProblem}.`);
      if (value === '') session.delete(name);
      else {
        session.set(name, value);
        rememberKeys({ [name]: value });
      }
      return { name, set: value !== '' };
    },
    list() {
      const names = new Set([
        ...Object.keys(base).filter((name) => endsLikeKeyName(name) && base[name]),
        ...session.keys(),
      ]);
      return [...names].sort().map((name) => {
        const value = session.get(name) ?? base[name] ?? '';
        return {
          name,
          source: session.has(name) ? ('session' as const) : ('environment' as const),
          hint: value.length > 8 ? `…${value.slice(-4)}` : '(set)',
        };
      });
    },
  };
}
