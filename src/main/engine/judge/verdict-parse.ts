/**
 * Reading a verdict: from `submit_verdict` arguments first, else from JSON in the final text
 * answer. Nothing is ever guessed: what does not parse is reported with its problems so the
 * loop can ask once for a repair, then record `invalid_verdict`.
 */
import type { Readout, Verdict } from '../contract';
import { toVerdict, verdictSchema } from './readouts';

/** The outcome of reading one candidate verdict. */
export type VerdictParse = { ok: true; verdict: Verdict } | { ok: false; problems: string[] };

/** Parses `submit_verdict` arguments (unknown: they came from a model). */
export function parseVerdictInput(readout: Readout, input: unknown): VerdictParse {
  let candidate = input;
  if (typeof candidate === 'string') {
    try {
      candidate = JSON.parse(candidate) as unknown;
    } catch {
      return { ok: false, problems: ['the arguments are not valid JSON'] };
    }
  }
  const parsed = verdictSchema(readout).safeParse(candidate);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.map(String).join('.') || '(arguments)'}: ${issue.message}`,
      ),
    };
  }
  return { ok: true, verdict: toVerdict(readout, parsed.data) };
}

/** Finds a verdict in JSON inside a text answer (a fenced block or a bare object), last first. */
export function extractVerdictFromText(readout: Readout, text: string): VerdictParse {
  const candidates = [...fencedBlocks(text), ...bareObjects(text)];
  if (candidates.length === 0)
    return { ok: false, problems: ['the answer contains no JSON object'] };
  let firstProblems: string[] | undefined;
  for (const candidate of candidates.reverse()) {
    let value: unknown;
    try {
      value = JSON.parse(candidate) as unknown;
    } catch {
      continue;
    }
    const parsed = parseVerdictInput(readout, value);
    if (parsed.ok) return parsed;
    firstProblems ??= parsed.problems;
  }
  return { ok: false, problems: firstProblems ?? ['the JSON in the answer does not parse'] };
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** Top-level balanced `{...}` substrings, skipping braces inside strings. */
function bareObjects(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && depth > 0) inString = true;
    else if (char === '{') {
      if (depth === 0) start = index;
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) found.push(text.slice(start, index + 1));
    }
  }
  return found;
}
