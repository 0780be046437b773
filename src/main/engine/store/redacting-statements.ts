/**
 * Keys never reach the workspace file: every value bound to a statement of the store's
 * connection passes through secrets.ts's redaction rule first. This is the one write-time choke
 * point for transcripts, provider-call logs, web recordings, errors and everything else the
 * store holds, so a key a trusted endpoint echoes in a successful reply is stored redacted
 * whichever module wrote it (docs/SECURITY.md).
 *
 * Reads are redacted too, though they write nothing: a stored value was redacted as it was
 * written, so a read that looks it up must bind it redacted the same way or miss it (a study
 * named with a remembered key value inside is found by that name only so). What keeps this
 * cheap is the rule's cost, not skipping statements: bench part (r) times it per statement.
 */
import type Database from 'better-sqlite3';
import { redactKeyText } from '../secrets';

/** Shorter strings cannot hold a key (secrets.ts asks for 8+ characters); skip the scan. */
const SHORTEST_KEY = 8;

/**
 * `value` redacted; the very same value (no copy) when nothing in it changed, which is nearly
 * always: every statement binds its values through here, so the common case allocates nothing.
 */
function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return value.length < SHORTEST_KEY ? value : redactKeyText(value);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) return redactList(value);
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const [name, bound] of Object.entries(record)) {
    const redacted = redactValue(bound);
    if (redacted === bound) continue;
    copy ??= Object.fromEntries(Object.entries(record));
    copy[name] = redacted;
  }
  return copy ?? value;
}

/** `values` redacted one by one; the same array when none of them changed. */
function redactList(values: readonly unknown[]): readonly unknown[] {
  let copy: unknown[] | null = null;
  for (let index = 0; index < values.length; index += 1) {
    const bound = values[index];
    const redacted = redactValue(bound);
    if (redacted === bound) continue;
    copy ??= values.slice();
    copy[index] = redacted;
  }
  return copy ?? values;
}

/** The methods that take bound parameters. */
const BINDING = new Set<PropertyKey>(['run', 'get', 'all', 'iterate', 'bind']);

/**
 * `statement` with its bound parameters redacted; chaining methods return the wrapper. Each
 * method's wrapper is made once per statement, not on every call (the runner's cached
 * statements are called thousands of times).
 */
function redactingStatement(statement: Database.Statement): Database.Statement {
  const wrapped = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  const wrapper: Database.Statement = new Proxy(statement, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== 'function') return member;
      const known = wrapped.get(property);
      if (known) return known;
      const method = member as (...args: unknown[]) => unknown;
      const binding = BINDING.has(property);
      const call = (...args: unknown[]) => {
        const result = method.apply(target, binding ? (redactList(args) as unknown[]) : args);
        return result === target ? wrapper : result;
      };
      wrapped.set(property, call);
      return call;
    },
  });
  return wrapper;
}

/** Makes every statement `db` prepares from now on redact what it binds. */
export function redactBoundValues(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => redactingStatement(prepare(sql))) as typeof db.prepare;
}
