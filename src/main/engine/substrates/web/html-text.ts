/**
 * A fetched HTML page as the text the judge reads: the title, and the body without scripts,
 * styles, comments and tags. Deliberately small (no DOM): the judge needs the words, not the
 * layout.
 *
 * A live page is a stranger's text, so this is one left-to-right scan in linear time (no
 * regular expression that searches ahead from every `<`: 160 KB of unclosed `<script>` used to
 * cost seconds). Every search for a closing token remembers where it found one, or that there
 * is none, so a thousand unclosed `<script>`, `<!--` or `<a title="…` never rescan the page.
 * As a browser does, an unclosed `<script>`, `<style>`, `<noscript>` or `<template>` runs to
 * the end of the page (its source never reaches the judge as words); an unclosed comment or tag
 * stays text, and an unclosed `<head>` is only its tag (`</head>` is optional in HTML).
 */

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole;
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}

/** Elements whose content is not body text; skipped whole, closing tag included. */
const rawText = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

/** Raw-text elements that, unclosed, run to the end of the page. */
const runsToEnd = new Set(['script', 'style', 'noscript', 'template']);

/** Tags that end a line of text. */
const lineBreaks = new Set([
  'br',
  '/p',
  '/div',
  '/h1',
  '/h2',
  '/h3',
  '/h4',
  '/h5',
  '/h6',
  '/li',
  '/tr',
]);

/** A span of the page: [start, end). */
type Span = readonly [number, number];

/**
 * Finds the next match of `pattern` at or after a position, remembering its last answer: the
 * scan only moves forward, so each stretch of the page is searched at most once per pattern.
 */
function forwardFinder(html: string, pattern: RegExp): (from: number) => Span | null {
  const search = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found: Span | null = null;
  return (from) => {
    const stillValid = from >= searchedFrom && (found === null || found[0] >= from);
    if (!stillValid) {
      search.lastIndex = from;
      const match = search.exec(html);
      found = match ? [match.index, match.index + match[0].length] : null;
      searchedFrom = from;
    }
    return found;
  };
}

/** One step of the scan: a tag at `start`, or a plain `<` when null. */
interface Tag {
  /** Lower-case name, `/` first for a closing tag; '!' for a comment. */
  name: string;
  /** Just after the tag's name (where a raw-text element's content starts). */
  nameEnd: number;
  /** Just after its `>`. */
  end: number;
}

/** The page's tags in order, each found in time linear in the page overall. */
function tagReader(html: string): (start: number) => Tag | null {
  const closeAngle = forwardFinder(html, />/);
  const closeComment = forwardFinder(html, /-->/);
  const tagName = /\/?[A-Za-z][A-Za-z0-9-]*/y;
  return (start) => {
    if (html.startsWith('<!--', start)) {
      const close = closeComment(start + 4);
      if (close) return { name: '!', nameEnd: start + 4, end: close[1] };
    }
    const next = html.charAt(start + 1);
    const letter = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z');
    // A bare `<` (prose, maths) is decided on one character, without running a pattern.
    if (!letter && next !== '!' && next !== '?' && next !== '/') return null;
    tagName.lastIndex = start + 1;
    const named = tagName.exec(html);
    const close = closeAngle(start + 1);
    if (!close) return null;
    const name = named ? named[0].toLowerCase() : next;
    return { name, nameEnd: named ? start + 1 + named[0].length : start + 1, end: close[1] };
  };
}

/** The page split into what is text and what is skipped, with the title's span if any. */
function scan(html: string): { pieces: string[]; title: Span | null } {
  const readTag = tagReader(html);
  const closers = new Map<string, (from: number) => Span | null>();
  const closer = (name: string) => {
    let find = closers.get(name);
    if (!find) {
      find = forwardFinder(html, new RegExp(`</${name}\\s*>`, 'i'));
      closers.set(name, find);
    }
    return find;
  };
  const pieces: string[] = [];
  let title: Span | null = null;
  let textFrom = 0;
  let position = 0;
  for (;;) {
    const start = html.indexOf('<', position);
    if (start < 0) break;
    const tag = readTag(start);
    if (!tag) {
      position = start + 1;
      continue;
    }
    pieces.push(html.slice(textFrom, start));
    let end = tag.end;
    if (rawText.has(tag.name)) {
      const close = closer(tag.name)(tag.nameEnd);
      if (tag.name === 'title' || tag.name === 'head') {
        const titleSpan = titleIn(html, readTag, closer, tag, close);
        if (titleSpan && title === null) title = titleSpan;
      }
      if (close) end = close[1];
      else if (runsToEnd.has(tag.name)) end = html.length;
    }
    pieces.push(lineBreaks.has(tag.name) ? '\n' : ' ');
    textFrom = position = end;
  }
  pieces.push(html.slice(textFrom));
  return { pieces, title };
}

/** The title's text span: `tag` itself when it is `<title>`, else the first title inside it. */
function titleIn(
  html: string,
  readTag: (start: number) => Tag | null,
  closer: (name: string) => (from: number) => Span | null,
  tag: Tag,
  close: Span | null,
): Span | null {
  if (tag.name === 'title') return close ? [tag.end, close[0]] : null;
  const limit = close ? close[0] : html.length;
  for (let position = tag.end; position < limit;) {
    const start = html.indexOf('<', position);
    if (start < 0 || start >= limit) return null;
    const inner = readTag(start);
    if (inner?.name === 'title') {
      const titleClose = closer('title')(inner.nameEnd);
      return titleClose ? [inner.end, titleClose[0]] : null;
    }
    position = inner ? inner.end : start + 1;
  }
  return null;
}

/** The title and text of `html`. */
export function htmlToText(html: string): { title: string; content: string } {
  const { pieces, title: titleSpan } = scan(html);
  const title = titleSpan ? decode(html.slice(titleSpan[0], titleSpan[1])).trim() : '';
  const content = decode(pieces.join(''))
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v]{2,}|[\t\r\f\v]/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return { title: title || 'untitled page', content };
}
