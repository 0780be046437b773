/**
 * Comparing the investigations of two runs of the same judge on the same item (the uncued
 * baseline and the cued run, App. A): where they diverge, how much evidence they share, which
 * checks the cued run skipped and which it added, and whether a rationale cites a check. Pure
 * functions over tool calls; the paper's exemplars mark exactly these ("the purple rule marks
 * where the two runs diverge", "green marks evidence both judges gathered", App. A).
 */
import { extractClaims, normalizeNumber } from './claims';

/** The part of a tool call the diff compares. */
export interface CallLike {
  name: string;
  input: unknown;
  output: string;
}

function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a.localeCompare(b),
    );
    return Object.fromEntries(entries.map(([key, entry]) => [key, canonical(entry)]));
  }
  return value;
}

function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * Keys already made, per call object: a replay compares every call of one run with every call
 * of the other (missingChecks), so a 500-call pair would otherwise parse each input 1,000 times.
 */
const keys = new WeakMap<object, string>();

/** Identity of a check: tool name + input, keys sorted and whitespace collapsed. */
export function callKey(call: Pick<CallLike, 'name' | 'input'>): string {
  const known = keys.get(call);
  if (known !== undefined) return known;
  const key = `${call.name} ${JSON.stringify(canonical(parsedInput(call.input))) ?? 'null'}`;
  keys.set(call, key);
  return key;
}

/**
 * The first index at which the two runs' calls differ in name + input; the shorter length when
 * one run is a prefix of the other; null when both ran identical call sequences.
 */
export function divergenceIndex(
  baseline: readonly CallLike[],
  cued: readonly CallLike[],
): number | null {
  const shorter = Math.min(baseline.length, cued.length);
  for (let index = 0; index < shorter; index += 1) {
    if (callKey(baseline[index] as CallLike) !== callKey(cued[index] as CallLike)) return index;
  }
  return baseline.length === cued.length ? null : shorter;
}

/** Jaccard index of the two runs' sets of checks (by name + input); 1 when both ran none. */
export function jaccard(baseline: readonly CallLike[], cued: readonly CallLike[]): number {
  const a = new Set(baseline.map(callKey));
  const b = new Set(cued.map(callKey));
  const union = new Set([...a, ...b]);
  if (union.size === 0) return 1;
  let shared = 0;
  for (const key of a) if (b.has(key)) shared += 1;
  return shared / union.size;
}

/**
 * True when `other` ran the same check as `call`: same tool and either the same input or the
 * same non-empty output (a reformatted query or command that returned the same evidence).
 */
export function sameCheck(call: CallLike, other: CallLike): boolean {
  if (call.name !== other.name) return false;
  if (callKey(call) === callKey(other)) return true;
  const output = call.output.trim();
  return output.length > 0 && output === other.output.trim();
}

/** Calls of `from` that `other` never ran (see sameCheck), with their indices in `from`. */
export function missingChecks<T extends CallLike>(
  from: readonly T[],
  other: readonly CallLike[],
): { index: number; call: T }[] {
  return from.flatMap((call, index) =>
    other.some((candidate) => sameCheck(call, candidate)) ? [] : [{ index, call }],
  );
}

function inputStrings(input: unknown): string[] {
  const value = parsedInput(input);
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(inputStrings);
  if (typeof value === 'object' && value !== null)
    return Object.values(value as Record<string, unknown>).flatMap(inputStrings);
  return [];
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Whether a rationale cites a check: it names the check's argument (a path, query or command
 * of at least 3 characters), quotes something the output holds, repeats an output line of at
 * least 8 characters, or states a number or identifier the output holds that the prompt
 * (`common`) does not already contain.
 */
export function cites(rationale: string, call: CallLike, common = ''): boolean {
  const text = squash(rationale);
  if (!text) return false;
  if (
    inputStrings(call.input).some(
      (value) => squash(value).length >= 3 && text.includes(squash(value)),
    )
  )
    return true;
  const output = call.output;
  const lines = output.split('\n').map(squash);
  if (lines.some((line) => line.length >= 8 && text.includes(line))) return true;
  const outputNumbers = new Set((output.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map(normalizeNumber));
  return extractClaims(rationale).some((claim) => {
    if (claim.kind === 'quote') return claim.text.length >= 3 && output.includes(claim.text);
    if (claim.kind === 'number')
      return outputNumbers.has(normalizeNumber(claim.text)) && !common.includes(claim.text);
    return output.includes(claim.text) && !common.includes(claim.text);
  });
}

/** One row of an aligned view of the two runs: a call of either, or the same check in both. */
export interface AlignedRow {
  baseline: number | null;
  cued: number | null;
}

/**
 * Aligns the two call sequences on their longest common subsequence of checks (by name +
 * input), for a side-by-side replay: shared checks share a row, the rest stand alone.
 */
export function alignCalls(baseline: readonly CallLike[], cued: readonly CallLike[]): AlignedRow[] {
  const a = baseline.map(callKey);
  const b = cued.map(callKey);
  const table: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = table[i] as number[];
      const next = table[i + 1] as number[];
      row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      rows.push({ baseline: i, cued: j });
      i += 1;
      j += 1;
    } else if (
      j >= b.length ||
      (i < a.length && (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))
    ) {
      rows.push({ baseline: i, cued: null });
      i += 1;
    } else {
      rows.push({ baseline: null, cued: j });
      j += 1;
    }
  }
  return rows;
}
