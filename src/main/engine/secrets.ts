/**
 * Keeping API keys out of everything that leaves the app (ARCHITECTURE.md, fixed points: keys
 * are "never written to logs, exports or the database in clear"). CueLab stores only the name of
 * a key's environment variable, never its value; this is the belt to that: an export is
 * scanned for the value of every secret-looking environment variable, which is redacted, and for
 * any field named like a key, which refuses the export.
 */
import { EngineError } from './errors';

/** An environment variable that holds a secret. */
export interface SecretValue {
  name: string;
  value: string;
}

/** Names that hold secrets: *KEY*, *TOKEN*, *SECRET*, *PASSWORD*, *CREDENTIAL*. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** Shorter values are too likely to occur by chance (and too weak to be real keys). */
const MIN_SECRET_LENGTH = 8;

/** Fields no export may carry, whatever their value. */
const KEY_FIELD = /\\?"(apiKey|api_key|x-api-key|authorization|password|secret)\\?"\s*:/i;

/** The secret-looking variables of an environment with a value worth scanning for. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): SecretValue[] {
  return Object.entries(env).flatMap(([name, value]) =>
    SECRET_NAME.test(name) && value !== undefined && value.trim().length >= MIN_SECRET_LENGTH
      ? [{ name, value: value.trim() }]
      : [],
  );
}

/**
 * Replaces every occurrence of a secret value (raw, or as JSON escapes it) with
 * `[redacted:NAME]`; returns the text and the names of the variables found.
 */
export function redactSecrets(
  text: string,
  secrets: readonly SecretValue[],
): { text: string; redacted: string[] } {
  let out = text;
  const redacted: string[] = [];
  for (const secret of secrets) {
    const forms = [...new Set([secret.value, JSON.stringify(secret.value).slice(1, -1)])];
    if (!forms.some((form) => out.includes(form))) continue;
    redacted.push(secret.name);
    for (const form of forms) out = out.split(form).join(`[redacted:${secret.name}]`);
  }
  return { text: out, redacted };
}

/** Throws when the text has a field named like a key (`"apiKey":` and the like). */
export function refuseKeyFields(text: string, what: string): void {
  const match = KEY_FIELD.exec(text);
  if (match)
    throw new EngineError(
      'internal',
      `Refusing to write ${what}: it holds a field named "${match[1]}", which may carry a secret.`,
    );
}
