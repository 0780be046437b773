/**
 * Keeping API keys out of everything the app stores or lets leave (ARCHITECTURE.md, fixed
 * points: keys are "never written to logs, exports or the database in clear"). CueLab stores
 * only the name of a key's environment variable, never its value; this is the belt to that, one
 * rule (redactKeyText) used at every store write and again at every export:
 *
 * - the value of every key the process knows is replaced by `[redacted:NAME]`: secret-looking
 *   variables of the environment now, and every key value handed to it before (session keys,
 *   providers' environments), remembered in memory so a key stays redacted after its variable
 *   is unset;
 * - any string shaped like a provider key (`sk-…`, `sk-ant-…`, `Bearer …` and a few others)
 *   becomes `[redacted:key]`, whoever's key it is;
 * - an export holding a field named like a key is refused (refuseKeyFields).
 *
 * See docs/SECURITY.md.
 */
import { isSecretName } from '../../shared/secrets';
import { EngineError } from './errors';

/** An environment variable that holds a secret. */
export interface SecretValue {
  name: string;
  value: string;
}

/** Shorter values are too likely to occur by chance (and too weak to be real keys). */
const MIN_SECRET_LENGTH = 8;

/** Fields no export may carry, whatever their value. */
const KEY_FIELD = /\\?"(apiKey|api_key|x-api-key|authorization|password|secret)\\?"\s*:/i;

/** The secret-looking variables of an environment with a value worth scanning for. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): SecretValue[] {
  return Object.entries(env).flatMap(([name, value]) =>
    isSecretName(name) && value !== undefined && value.trim().length >= MIN_SECRET_LENGTH
      ? [{ name, value: value.trim() }]
      : [],
  );
}

/** A shape of API key: a pattern, and a check on each match it must also pass. */
export interface KeyShape {
  /** Whose keys look like this, for tests and docs. */
  name: string;
  /** A global pattern with no lookaround and no nested repetition, so it runs in linear time. */
  pattern: RegExp;
  /** True when the match is a key (a digit somewhere): checked on the match, never by a lookahead. */
  accept: (match: string) => boolean;
}

const anyMatch = (): boolean => true;
const hasDigit = (match: string): boolean => /\d/.test(match);

/**
 * Strings shaped like API keys, whatever variable held them (or none: a key pasted into a
 * trajectory). A key is long random text, so some shapes ask for a digit and 16+ characters to
 * keep prose such as "task-runner" out. The digit is checked on the match, not with a
 * lookahead: a lookahead that scans to the end of a run of key characters, at every `sk-` of a
 * stranger's text, made redaction quadratic (1 MB of `sk-` took minutes). Each pattern's body is
 * one greedy character class, so a match consumes its whole run and the scan never returns into
 * it; a run without a digit is left as it is, exactly as the lookahead left it (every later
 * prefix inside that run has a subset of its characters).
 */
export const keyShapes: readonly KeyShape[] = [
  // Authorization headers as they are echoed: `Bearer <token>`.
  { name: 'bearer', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g, accept: anyMatch },
  // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-api03-`) and most OpenAI-compatible gateways.
  { name: 'openai-anthropic', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, accept: hasDigit },
  // Google AI Studio, GitHub, Hugging Face, xAI, AWS access key ids.
  { name: 'google', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, accept: anyMatch },
  { name: 'github', pattern: /\b(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{20,}/g, accept: anyMatch },
  { name: 'huggingface', pattern: /\bhf_[A-Za-z0-9]{30,}/g, accept: hasDigit },
  { name: 'xai', pattern: /\bxai-[A-Za-z0-9]{20,}/g, accept: hasDigit },
  { name: 'aws', pattern: /\bAKIA[0-9A-Z]{16}\b/g, accept: anyMatch },
];

/** Key values handed to this process, by value: redacted even once their variable is gone. */
const rememberedKeys = new Map<string, string>();

/** Remembers the key values of `env` (secret-looking names) for every later redaction. */
export function rememberKeys(env: Readonly<Record<string, string | undefined>>): void {
  for (const { name, value } of secretValues(env))
    if (!rememberedKeys.has(value)) rememberedKeys.set(value, name);
}

/**
 * Reading process.env is most of a redaction's cost and every store write redacts, so its scan
 * is reused for a second. Keys the engine hands a provider are remembered at once
 * (redaction.ts), so only a variable set in process.env meanwhile can wait that second.
 */
const environmentScanMs = 1000;
let environmentScan: { at: number; values: SecretValue[] } | null = null;

function environmentKeys(): SecretValue[] {
  const now = Date.now();
  if (!environmentScan || now - environmentScan.at > environmentScanMs)
    environmentScan = { at: now, values: secretValues(process.env) };
  return environmentScan.values;
}

/** Every key value this process knows: `env`'s, process.env's now, and every one remembered. */
export function knownKeys(env: Readonly<Record<string, string | undefined>> = {}): SecretValue[] {
  const byValue = new Map<string, string>(rememberedKeys);
  for (const { name, value } of [...environmentKeys(), ...secretValues(env)])
    byValue.set(value, name);
  // Longest first: a key that contains another is redacted whole.
  return [...byValue]
    .map(([value, name]) => ({ name, value }))
    .sort((a, b) => b.value.length - a.value.length);
}

/**
 * The one redaction rule: every known key value (raw or JSON-escaped) becomes
 * `[redacted:NAME]`, then anything shaped like a key becomes `[redacted:key]`. The markers hold
 * no quote or backslash, so JSON text stays JSON.
 */
export function redactKeyText(
  text: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  let out = redactSecrets(text, knownKeys(env)).text;
  for (const shape of keyShapes)
    out = out.replace(shape.pattern, (match) => {
      if (!shape.accept(match)) return match;
      return match.startsWith('Bearer') ? 'Bearer [redacted:key]' : '[redacted:key]';
    });
  return out;
}

/** `value` with redactKeyText applied to its JSON text (an export's whole log or table). */
export function redactKeyJson<T>(
  value: T,
  env: Readonly<Record<string, string | undefined>> = {},
): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const redacted = redactKeyText(text, env);
  if (redacted === text) return value;
  try {
    return JSON.parse(redacted) as T;
  } catch {
    throw new EngineError(
      'internal',
      'Refusing to export: redacting a key left the text unreadable as JSON.',
    );
  }
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
