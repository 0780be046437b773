/**
 * Redacting keys out of error text. A provider that rejects a key often
 * echoes it ("Incorrect API key provided: sk-…"), and that text is stored (rep and job errors,
 * a paused study's reason), shown (status, the window) and exported (bundles). Every key the
 * engine holds is redacted where provider errors enter the engine, so nothing downstream ever
 * sees one: the environment's keys and the session keys handed over through LabApi alike.
 */
import { redactKeyText, rememberKeys } from './secrets';
import type { ModelProvider } from './providers';

/** Where the engine's keys are: process environment plus session keys. */
export type KeySource = () => Readonly<Record<string, string | undefined>>;

/**
 * Replaces every key value of `keys()` (and every other key the process knows, and anything
 * shaped like a key) in `text` with a `[redacted:…]` marker: secrets.ts's one rule.
 */
export function redactKeys(text: string, keys: KeySource): string {
  return redactKeyText(text, keys());
}

/** Redacts `error`'s message, stack and cause chain in place; returns it. */
export function redactError<T>(error: T, keys: KeySource): T {
  const seen = new Set<unknown>();
  for (let current: unknown = error; current instanceof Error && !seen.has(current);) {
    seen.add(current);
    current.message = redactKeys(current.message, keys);
    if (current.stack) current.stack = redactKeys(current.stack, keys);
    current = current.cause;
  }
  return error;
}

/** `provider` with every error it throws redacted before anyone stores or shows it. */
export function redactingProvider(provider: ModelProvider, keys: KeySource): ModelProvider {
  // The keys this provider may use are redacted from then on, even once their variable is gone.
  rememberKeys(keys());
  return {
    kind: provider.kind,
    complete: (request, signal) =>
      provider.complete(request, signal).catch((error: unknown) => {
        throw redactError(error, keys);
      }),
  };
}
