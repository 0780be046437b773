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

/** A shape of API key: a prefix, then a run of key characters long enough to be random. */
export interface KeyShape {
  /** Whose keys look like this, for tests and docs. */
  name: string;
  /** What a key starts with, after a word boundary. */
  prefixes: readonly string[];
  /** Whether whitespace separates the prefix from the key (`Bearer <token>`). */
  spaced: boolean;
  /** The characters of the key after its prefix. */
  body: (code: number) => boolean;
  /** Fewest characters after the prefix. */
  min: number;
  /** Exactly `min` characters, then a word boundary (AWS access key ids). */
  exact: boolean;
  /** Whether the key part must hold a digit (keeps prose such as "sk-learn-tutorial" out). */
  needsDigit: boolean;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;
const isAlphanumeric = (code: number) => isDigit(code) || isUpper(code) || isLower(code);
/** `\w`: a word character, for word boundaries. */
const isWord = (code: number) => isAlphanumeric(code) || code === 95;
const isWordOrDash = (code: number) => isWord(code) || code === 45;
/** Characters of a bearer token: `[A-Za-z0-9._~+/=-]`. */
const isTokenCharacter = (code: number) =>
  isAlphanumeric(code) || [46, 95, 126, 43, 47, 61, 45].includes(code);
const isSpace = (code: number) => /\s/.test(String.fromCharCode(code));

/**
 * Strings shaped like API keys, whatever variable held them (or none: a key pasted into a
 * trajectory). A key is long random text, so the shapes ask for 16+ characters and some for a
 * digit, to keep prose such as "task-runner" out.
 *
 * They are found by one forward scan per shape, not by regular expressions: the old `sk-`
 * pattern's lookahead rescanned to the end of a run of key characters at every `sk-`, which is
 * quadratic (1 MB of `sk-` took minutes), and even a linear pattern costs V8's regexp
 * interpreter about half a second per megabyte before it compiles one. A run of key characters
 * without its digit is skipped whole, as the lookahead skipped it: every later prefix inside the
 * run sees a part of the same characters.
 */
export const keyShapes: readonly KeyShape[] = [
  // Authorization headers as they are echoed: `Bearer <token>`.
  {
    name: 'bearer',
    prefixes: ['Bearer'],
    spaced: true,
    body: isTokenCharacter,
    min: 16,
    exact: false,
    needsDigit: false,
  },
  // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-api03-`) and most OpenAI-compatible gateways.
  {
    name: 'openai-anthropic',
    prefixes: ['sk-'],
    spaced: false,
    body: isWordOrDash,
    min: 16,
    exact: false,
    needsDigit: true,
  },
  // Google AI Studio, GitHub, Hugging Face, xAI, AWS access key ids.
  {
    name: 'google',
    prefixes: ['AIza'],
    spaced: false,
    body: isWordOrDash,
    min: 30,
    exact: false,
    needsDigit: false,
  },
  {
    name: 'github',
    prefixes: ['ghp_', 'gho_', 'ghs_', 'github_pat_'],
    spaced: false,
    body: isWord,
    min: 20,
    exact: false,
    needsDigit: false,
  },
  {
    name: 'huggingface',
    prefixes: ['hf_'],
    spaced: false,
    body: isAlphanumeric,
    min: 30,
    exact: false,
    needsDigit: true,
  },
  {
    name: 'xai',
    prefixes: ['xai-'],
    spaced: false,
    body: isAlphanumeric,
    min: 20,
    exact: false,
    needsDigit: true,
  },
  {
    name: 'aws',
    prefixes: ['AKIA'],
    spaced: false,
    body: (code) => isDigit(code) || isUpper(code),
    min: 16,
    exact: true,
    needsDigit: false,
  },
];

/**
 * Finds `needle` at or after a position, remembering its last answer: callers only move
 * forward, so each stretch of the text is searched at most once per needle.
 */
function forwardIndex(text: string, needle: string): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (!(from >= searchedFrom && (found < 0 || found >= from))) {
      found = text.indexOf(needle, from);
      searchedFrom = from;
    }
    return found;
  };
}

/** `text` with every key of `shape` replaced by its marker. */
function redactShape(text: string, shape: KeyShape): string {
  if (!shape.prefixes.some((prefix) => text.includes(prefix))) return text;
  const finders = shape.prefixes.map((prefix) => ({ prefix, next: forwardIndex(text, prefix) }));
  const marker = shape.spaced ? `${shape.prefixes[0] ?? ''} [redacted:key]` : '[redacted:key]';
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    let start = -1;
    let prefix = '';
    for (const finder of finders) {
      const index = finder.next(from);
      if (index >= 0 && (start < 0 || index < start)) [start, prefix] = [index, finder.prefix];
    }
    if (start < 0) break;
    if (start > 0 && isWord(text.charCodeAt(start - 1))) {
      from = start + 1;
      continue;
    }
    let end = start + prefix.length;
    if (shape.spaced) {
      const spaces = end;
      while (end < text.length && isSpace(text.charCodeAt(end))) end += 1;
      if (end === spaces) {
        from = start + 1;
        continue;
      }
    }
    const bodyStart = end;
    let digits = 0;
    const longest = shape.exact ? shape.min + 1 : text.length;
    while (end < text.length && end - bodyStart < longest && shape.body(text.charCodeAt(end))) {
      if (isDigit(text.charCodeAt(end))) digits += 1;
      end += 1;
    }
    const length = end - bodyStart;
    const bounded = !shape.exact || end >= text.length || !isWord(text.charCodeAt(end));
    if (length < shape.min || (shape.exact && length !== shape.min) || !bounded) {
      from = start + 1;
      continue;
    }
    from = end;
    if (shape.needsDigit && digits === 0) continue;
    out += text.slice(copied, start) + marker;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Key values handed to this process, by value: redacted even once their variable is gone. */
const rememberedKeys = new Map<string, string>();

/**
 * knownKeys() with no extra environment, and each key's forms: every store write redacts every
 * bound string, so the list is built again only when it can have changed (a key remembered, or
 * process.env read again), not on every value.
 */
let knownKeyForms: { environment: readonly SecretValue[]; keys: KeyForms[] } | null = null;

/** Remembers the key values of `env` (secret-looking names) for every later redaction. */
export function rememberKeys(env: Readonly<Record<string, string | undefined>>): void {
  for (const { name, value } of secretValues(env))
    if (!rememberedKeys.has(value)) {
      rememberedKeys.set(value, name);
      knownKeyForms = null;
    }
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
  return mergeKeys(environmentKeys(), secretValues(env));
}

function mergeKeys(
  environment: readonly SecretValue[],
  extra: readonly SecretValue[],
): SecretValue[] {
  const byValue = new Map<string, string>(rememberedKeys);
  for (const { name, value } of [...environment, ...extra]) byValue.set(value, name);
  // Longest first: a key that contains another is redacted whole.
  return [...byValue]
    .map(([value, name]) => ({ name, value }))
    .sort((a, b) => b.value.length - a.value.length);
}

/** A known key with the forms it is searched for (raw, JSON-escaped) and its marker. */
interface KeyForms {
  name: string;
  forms: string[];
  marker: string;
}

function formsOf(secrets: readonly SecretValue[]): KeyForms[] {
  return secrets.map((secret) => ({
    name: secret.name,
    forms: [...new Set([secret.value, JSON.stringify(secret.value).slice(1, -1)])],
    marker: `[redacted:${secret.name}]`,
  }));
}

function currentKeyForms(env: Readonly<Record<string, string | undefined>>): KeyForms[] {
  const environment = environmentKeys();
  const extra = secretValues(env);
  if (extra.length) return formsOf(mergeKeys(environment, extra));
  if (knownKeyForms?.environment !== environment)
    knownKeyForms = { environment, keys: formsOf(mergeKeys(environment, [])) };
  return knownKeyForms.keys;
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
  let out = text;
  for (const key of currentKeyForms(env)) {
    if (!key.forms.some((form) => out.includes(form))) continue;
    for (const form of key.forms) out = out.split(form).join(key.marker);
  }
  for (const shape of keyShapes) out = redactShape(out, shape);
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
