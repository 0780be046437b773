/**
 * Specific claims in a rationale and whether anything the judges saw supports them. §3.3
 * defines hallucination as "the judge fabricated evidence ... to justify the flip"; App. A.2
 * as "an observation that never occurred". A rationale's checkable specifics are its quoted
 * strings, file paths, numbers, and table / column names; one that appears in no tool output,
 * no tool input and nothing either run was shown is unsupported. Pure functions.
 *
 * Heuristics (ours): numbers count with at least three digits and not as a fraction in (0, 1)
 * (confidences); a path is supported when it appears whole, or when its directory and its last
 * segment both appear (a judge may join a listed name to the listed folder); quotes and names
 * match case-insensitively with whitespace collapsed.
 */

/** What kind of specific a claim is. */
export type ClaimKind = 'quote' | 'path' | 'number' | 'identifier';

/** One checkable specific of a rationale. */
export interface Claim {
  text: string;
  kind: ClaimKind;
}

const QUOTE_PATTERNS = [
  /"([^"\n]{2,200})"/g,
  /\u201c([^\u201d\n]{2,200})\u201d/g,
  /`([^`\n]{2,200})`/g,
  /(?<![A-Za-z0-9])'([^'\n]{2,80})'(?![A-Za-z0-9])/g,
];
const PATH_PATTERN =
  /(?<![\w/.-])(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*|(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/])/g;
const NUMBER_PATTERN = /(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])/g;
const SNAKE_PATTERN = /(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])/g;
/** "table orders_2023" / "column userId": a name after the word must look like an identifier. */
const TABLE_BEFORE = /\b(?:table|column|field)s?\s+[`"']?([A-Za-z_]\w*(?:[_\d]|[a-z][A-Z])\w*)/g;
/** "the invoices table": a plain word before the word, unless it is a common one. */
const TABLE_AFTER = /\b([A-Za-z_]\w*)[`"']?\s+(?:table|column)s?\b/gi;

/** Words that precede "table" / "column" without naming one. */
const NOT_NAMES = new Set(
  (
    'the a an this that these those same target final output outputs result results whole ' +
    'entire new other each every its their our my your which one first last main real actual ' +
    'following above below summary source temporary temp and or of in on to from with is was ' +
    'lookup join database sql pivot empty'
  ).split(' '),
);

/** A number without grouping commas ("300,024" → "300024"). */
export function normalizeNumber(text: string): string {
  return text.replace(/,/g, '');
}

function significantNumber(text: string): boolean {
  const plain = normalizeNumber(text);
  const digits = plain.replace(/\D/g, '').length;
  const value = Number(plain);
  return digits >= 3 && !(plain.includes('.') && value > 0 && value < 1);
}

function trimPath(text: string): string {
  return text.replace(/[.,:;)]+$/, '');
}

/** The checkable specifics of a text, each text once (first kind wins), by kind then appearance. */
export function extractClaims(text: string): Claim[] {
  const claims: Claim[] = [];
  const seen = new Set<string>();
  const add = (kind: ClaimKind, value: string) => {
    const key = value.toLowerCase();
    if (!value.trim() || seen.has(key)) return;
    seen.add(key);
    claims.push({ kind, text: value });
  };
  for (const pattern of QUOTE_PATTERNS) {
    for (const match of text.matchAll(pattern)) add('quote', (match[1] ?? '').trim());
  }
  for (const match of text.matchAll(PATH_PATTERN)) {
    const path = trimPath(match[0]);
    if (/[A-Za-z]/.test(path) && path.length >= 3 && !/^(?:e\.g|i\.e|etc)$/i.test(path))
      add('path', path);
  }
  for (const match of text.matchAll(NUMBER_PATTERN)) {
    if (significantNumber(match[0])) add('number', match[0]);
  }
  for (const match of text.matchAll(SNAKE_PATTERN)) add('identifier', match[0]);
  for (const pattern of [TABLE_BEFORE, TABLE_AFTER]) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1] ?? '';
      if (name.length >= 3 && !NOT_NAMES.has(name.toLowerCase())) add('identifier', name);
    }
  }
  return claims;
}

/** Everything the judges saw, prepared for support checks. */
export interface SupportCorpus {
  /** The texts joined, whitespace collapsed. */
  text: string;
  /** The same, lower-cased. */
  lower: string;
  /** Every number in the texts, without grouping commas. */
  numbers: Set<string>;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Builds the support corpus from texts (tool outputs, tool inputs, prompts). */
export function supportCorpus(texts: readonly string[]): SupportCorpus {
  const text = texts.map(squash).join('\n');
  const numbers = new Set((text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map(normalizeNumber));
  for (const value of [...numbers]) numbers.add(value.replace(/\.0+$/, ''));
  return { text, lower: text.toLowerCase(), numbers };
}

/** True when something in the corpus supports the claim. */
export function isSupported(claim: Claim, corpus: SupportCorpus): boolean {
  switch (claim.kind) {
    case 'quote':
    case 'identifier':
      return corpus.lower.includes(squash(claim.text).toLowerCase());
    case 'number': {
      const plain = normalizeNumber(claim.text);
      return corpus.numbers.has(plain) || corpus.numbers.has(plain.replace(/\.0+$/, ''));
    }
    case 'path': {
      if (corpus.text.includes(claim.text)) return true;
      const parts = claim.text.replace(/\/+$/, '').split('/');
      const base = parts.pop() ?? '';
      const directory = parts.join('/').replace(/^\.\//, '');
      return (
        base.length >= 3 &&
        corpus.text.includes(base) &&
        (directory === '' || corpus.text.includes(directory))
      );
    }
  }
}

/** The claims of `rationale` that nothing in the corpus supports. */
export function unsupportedClaims(rationale: string, corpus: SupportCorpus): Claim[] {
  return extractClaims(rationale).filter((claim) => !isSupported(claim, corpus));
}
