/**
 * Keys never reach the workspace file: every value bound to a statement of the store's
 * connection passes through secrets.ts's redaction rule first. This is the one write-time choke
 * point for transcripts, provider-call logs, web recordings, errors and everything else the
 * store holds, so a key a trusted endpoint echoes in a successful reply is stored redacted
 * whichever module wrote it (docs/SECURITY.md).
 */
import type Database from 'better-sqlite3';
import { redactKeyText } from '../secrets';

/** Shorter strings cannot hold a key (secrets.ts asks for 8+ characters); skip the scan. */
const SHORTEST_KEY = 8;

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return value.length < SHORTEST_KEY ? value : redactKeyText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value))
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, bound]) => [
        name,
        redactValue(bound),
      ]),
    );
  return value;
}

/** The methods that take bound parameters. */
const BINDING = new Set(['run', 'get', 'all', 'iterate', 'bind']);

/** `statement` with its bound parameters redacted; chaining methods return the wrapper. */
function redactingStatement(statement: Database.Statement): Database.Statement {
  const wrapper: Database.Statement = new Proxy(statement, {
    get(target, property, receiver: Database.Statement) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== 'function') return member;
      const method = member as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const result = method.apply(
          target,
          BINDING.has(String(property)) ? args.map(redactValue) : args,
        );
        return result === target ? receiver : result;
      };
    },
  });
  return wrapper;
}

/** Makes every statement `db` prepares from now on redact what it binds. */
export function redactBoundValues(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => redactingStatement(prepare(sql))) as typeof db.prepare;
}
