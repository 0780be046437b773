/**
 * The one rule for the names keys live under, read by everyone who takes, keeps, lists or
 * redacts a key: the engine's session keys and endpoint trust, the shell's keychain store, the
 * window's key form and the LabApi contract. Key values never pass through here; keeping and
 * redacting them stays in the engine (engine/secrets.ts, engine/redaction.ts).
 */

/** The endings a key variable's name has: `ANTHROPIC_API_KEY`, `HF_TOKEN`. */
const keyNameEndings = ['_API_KEY', '_TOKEN'] as const;

const endingPattern = `(${keyNameEndings.join('|')})$`;

/**
 * Names a key may be kept, handed over or read under. Upper-case too, because a key name joins
 * an environment that runs code: `NODE_OPTIONS` or `LD_PRELOAD` must never pass.
 */
const keyName = new RegExp(`^[A-Z][A-Z0-9_]*${endingPattern}`);

/** Any variable name ending like a key, whatever its case (what an environment lists as keys). */
const keyEnding = new RegExp(endingPattern);

/** The shape of a name the key form and the contracts accept before the key-name check. */
export const keyVariableShape = /^[A-Z_][A-Z0-9_]*$/;

/** The shape of an environment variable name a judge's `apiKeyEnv` may hold. */
export const environmentVariableShape = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names whose values redaction hides: broader than key names on purpose (`DB_PASSWORD`,
 * `CLIENT_SECRET`), because hiding a harmless value costs nothing and leaking a secret costs all.
 */
const secretName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** The rule in words, for error messages. */
export const keyNameRule = `names end in ${keyNameEndings.join(' or ')}`;

/** True for a name a key lives under (`*_API_KEY`, `*_TOKEN`); never PATH, NODE_OPTIONS, … */
export function isKeyName(name: string): boolean {
  return keyName.test(name);
}

/** True for a name that ends like a key's, in any case (a key the environment already holds). */
export function endsLikeKeyName(name: string): boolean {
  return keyEnding.test(name);
}

/** True for a name whose value may be a secret and so is redacted. */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

/** Why `name` may not hold a key, in words, or undefined when it may. */
export function keyNameProblem(name: string): string | undefined {
  return isKeyName(name) ? undefined : `${name} is not a key variable name (${keyNameRule})`;
}
