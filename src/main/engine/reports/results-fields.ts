/**
 * Field schemas of the results-import format (results-parse.ts). A CSV cell is text and a JSONL
 * value may be a number, boolean or null; both reach the same schema. Empty cells are absent,
 * text is trimmed, and every message names what was expected and what was found, so a rejected
 * row reads `verdict: expected pass or fail, got "yes"`.
 */
import { z } from 'zod';

/** A value as the messages quote it. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Empty cells and nulls are absent; text is trimmed. */
export function blank(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

function textSchema() {
  return z.string({
    error: (issue) =>
      issue.input === undefined ? 'required' : `expected text, got ${show(issue.input)}`,
  });
}

function cleanText(value: unknown): unknown {
  const cleaned = blank(value);
  return typeof cleaned === 'number' ? String(cleaned) : cleaned;
}

/** Required text (a JSON number is taken as its text). */
export function text() {
  return z.preprocess(cleanText, textSchema());
}

/** Optional text: empty or absent is undefined. */
export function optionalText() {
  return z.preprocess(cleanText, textSchema().optional());
}

/** One of a few words, case-insensitive; empty or absent is undefined. */
export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  const expected = values.join(' or ');
  return z.preprocess(
    (value) => {
      const cleaned = blank(value);
      return typeof cleaned === 'string' ? cleaned.toLowerCase() : cleaned;
    },
    z
      .enum(values, { error: (issue) => `expected ${expected}, got ${show(issue.input)}` })
      .optional(),
  );
}

/** A number passing `check` (described as `what`); empty or absent is undefined. */
export function number(what: string, check: (value: number) => boolean) {
  return z.preprocess(
    (value) => {
      const cleaned = blank(value);
      if (typeof cleaned !== 'string') return cleaned;
      const parsed = Number(cleaned);
      return Number.isFinite(parsed) ? parsed : cleaned;
    },
    z.unknown().transform((value, context) => {
      if (value === undefined) return undefined;
      if (typeof value !== 'number' || !check(value)) {
        context.addIssue({ code: 'custom', message: `expected ${what}, got ${show(value)}` });
        return z.NEVER;
      }
      return value;
    }),
  );
}

/** A whole number of at least `least`. */
export const wholeAtLeast = (least: number) => (value: number) =>
  Number.isInteger(value) && value >= least;

/** true / false (also yes / no, 1 / 0); empty or absent is false. */
export const flag = z.preprocess(
  (value) => {
    const cleaned = blank(value);
    return typeof cleaned === 'string' ? cleaned.toLowerCase() : cleaned;
  },
  z.unknown().transform((value, context) => {
    if (value === undefined || value === false || value === 0) return false;
    if (value === true || value === 1) return true;
    if (typeof value === 'string' && ['true', 'yes', '1'].includes(value)) return true;
    if (typeof value === 'string' && ['false', 'no', '0'].includes(value)) return false;
    context.addIssue({ code: 'custom', message: `expected true or false, got ${show(value)}` });
    return z.NEVER;
  }),
);
