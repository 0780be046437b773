/**
 * Reading JSON columns. A workspace file is user data too (it may come from a bundle, an old
 * CueLab or a hand edit), so a column is parsed and its shape checked here, and a bad one is
 * an EngineError naming the table, the row and the field, never a value cast to a type it
 * does not have.
 */
import type { z } from 'zod';
import type { Outcome } from '../mechanism-labels';
import { EngineError } from '../errors';

/** Which stored value is being read: named in the error when it is bad. */
export interface ColumnPlace {
  table: string;
  /** The row's key as a person would look it up (an id, or `study/item`). */
  row: string | number;
  /** The column. */
  field: string;
}

function unreadable(place: ColumnPlace, problem: string): EngineError {
  return new EngineError(
    'store_unreadable',
    `The workspace database is damaged: ${place.table} row ${String(place.row)}: ${place.field}: ${problem}.`,
  );
}

/** The parsed JSON of a column; an EngineError naming the place when it is not JSON. */
export function readJsonColumn(text: string, place: ColumnPlace): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw unreadable(place, `not valid JSON (${(error as Error).message})`);
  }
}

/** Like readJsonColumn, with null for SQL NULL. */
export function readOptionalJsonColumn(text: string | null, place: ColumnPlace): unknown {
  return text === null ? null : readJsonColumn(text, place);
}

/** A JSON column checked against `schema`; an EngineError naming place and path otherwise. */
export function parseJsonColumn<Schema extends z.ZodType>(
  schema: Schema,
  text: string,
  place: ColumnPlace,
): z.output<Schema> {
  const parsed = schema.safeParse(readJsonColumn(text, place));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw unreadable(place, `${path}${issue?.message ?? 'unexpected shape'}`);
}

/** True for a plain JSON object (what every `*_json` record column holds). */
export function isJsonRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON column that must hold an object; an EngineError naming the place otherwise. */
export function readJsonRecordColumn(text: string, place: ColumnPlace): Record<string, unknown> {
  const value = readJsonColumn(text, place);
  if (!isJsonRecord(value)) throw unreadable(place, 'expected a JSON object');
  return value;
}

/** An outcome column: pass, fail or NULL; anything else is a damaged row (`place` names it). */
export function outcomeColumn(value: unknown, place: string): Outcome | null {
  if (value === null || value === 'pass' || value === 'fail') return value;
  throw new EngineError(
    'store_unreadable',
    `The workspace database is damaged: ${place}: expected pass, fail or NULL, found ${JSON.stringify(value)}.`,
  );
}

/** An outcome column that a query has already kept from being NULL. */
export function requiredOutcomeColumn(value: unknown, place: string): Outcome {
  const outcome = outcomeColumn(value, place);
  if (outcome === null)
    throw new EngineError(
      'store_unreadable',
      `The workspace database is damaged: ${place}: expected pass or fail, found NULL.`,
    );
  return outcome;
}
