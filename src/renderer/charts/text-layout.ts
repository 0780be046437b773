/**
 * Text measured, never guessed: widths come from a canvas with the figures' own font stack, so
 * a label's box on screen, in a PNG and in an SVG opened on a machine with Arial or Helvetica
 * (metric twins of Liberation Sans) is the width this file computed. Long names wrap at their
 * natural joints (-, _, @, +, ., /, spaces) instead of being cut with "…".
 */
import { chartFont } from './palette';

let measuringContext: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();
const cacheLimit = 20_000;

/** Arial's mean advance per em over mixed-case names; used only where no canvas exists. */
const averageAdvance = 0.56;

function context(): CanvasRenderingContext2D | null {
  if (measuringContext === undefined) {
    measuringContext =
      typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  }
  return measuringContext;
}

/** The advance width of `text` in CSS pixels at `fontSize` and `fontWeight`. */
export function textWidth(text: string, fontSize: number, fontWeight = 400): number {
  const key = `${fontWeight}|${fontSize}|${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  const canvas = context();
  let width = text.length * fontSize * averageAdvance;
  if (canvas) {
    canvas.font = `${fontWeight} ${fontSize}px ${chartFont}`;
    width = canvas.measureText(text).width;
  }
  if (widths.size > cacheLimit) widths.clear();
  widths.set(key, width);
  return width;
}

/** The widest of several texts. */
export function widestText(texts: readonly string[], fontSize: number, fontWeight = 400): number {
  return texts.reduce((widest, text) => Math.max(widest, textWidth(text, fontSize, fontWeight)), 0);
}

/** Pieces of a name that a line may end after: each keeps its joint character. */
function pieces(text: string): string[] {
  return text.match(/[^\s\-_@+./:,·]*(?:[\s\-_@+./:,·]+|$)/g)?.filter(Boolean) ?? [text];
}

/** Breaks a piece wider than a line at characters (a joint-free name never gets cut short). */
function splitWide(piece: string, maxWidth: number, fontSize: number, fontWeight: number) {
  const parts: string[] = [];
  let current = '';
  for (const character of piece) {
    if (current && textWidth(current + character, fontSize, fontWeight) > maxWidth) {
      parts.push(current);
      current = character;
    } else current += character;
  }
  if (current) parts.push(current);
  return parts;
}

/** `text` in lines no wider than `maxWidth`, broken after its joints (greedy, like CSS). */
export function wrapText(
  text: string,
  maxWidth: number,
  fontSize: number,
  fontWeight = 400,
): string[] {
  const lines: string[] = [];
  let current = '';
  for (const piece of pieces(text)) {
    const candidate = current + piece;
    if (textWidth(candidate.trimEnd(), fontSize, fontWeight) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current.trimEnd());
    current = '';
    if (textWidth(piece.trimEnd(), fontSize, fontWeight) <= maxWidth) current = piece;
    else {
      const parts = splitWide(piece, maxWidth, fontSize, fontWeight);
      lines.push(...parts.slice(0, -1));
      current = parts[parts.length - 1] ?? '';
    }
  }
  if (current.trim()) lines.push(current.trimEnd());
  return lines.length > 0 ? lines : [''];
}

/** The line height used for wrapped figure text, in pixels. */
export function lineHeight(fontSize: number): number {
  return Math.ceil(fontSize * 1.25);
}

/** The widest piece of `texts` that has no joint to break at: the narrowest a column can be. */
export function widestPiece(texts: readonly string[], fontSize: number, fontWeight = 400): number {
  return texts.reduce(
    (widest, text) =>
      Math.max(
        widest,
        widestText(
          pieces(text).map((piece) => piece.trimEnd()),
          fontSize,
          fontWeight,
        ),
      ),
    0,
  );
}

/**
 * A label column as wide as its longest label (plus padding), capped at `maxWidth`: names
 * longer than the cap wrap inside it instead of pushing the plot off the figure. A name with no
 * joint to wrap at widens the column past the cap (up to 1.8 times it) rather than break mid-word.
 */
export function labelColumn(
  labels: readonly string[],
  fontSize: number,
  minWidth: number,
  maxWidth: number,
  fontWeight = 400,
): number {
  const wanted = Math.ceil(widestText(labels, fontSize, fontWeight)) + 2;
  const unbreakable = Math.ceil(widestPiece(labels, fontSize, fontWeight)) + 2;
  return Math.max(minWidth, Math.min(maxWidth, wanted), Math.min(unbreakable, maxWidth * 1.8));
}

/** How many lines the tallest of `texts` wraps to at `maxWidth`. */
export function mostLines(
  texts: readonly string[],
  maxWidth: number,
  fontSize: number,
  fontWeight = 400,
): number {
  return texts.reduce(
    (most, text) => Math.max(most, wrapText(text, maxWidth, fontSize, fontWeight).length),
    1,
  );
}

/**
 * The tick count to ask a linear scale for so that its labels (like "100%") sit at least
 * `spacing` pixels apart: d3 rounds the count to nice steps, so the result is checked, not
 * assumed (fewer ticks on a narrow axis, never fewer than two).
 */
export function fittingTicks(
  scale: { ticks: (count: number) => number[]; range: () => number[] },
  spacing = 48,
): number {
  const [start = 0, end = 0] = scale.range();
  const pixels = Math.abs(end - start);
  for (let count = Math.max(2, Math.floor(pixels / spacing)); count > 2; count -= 1) {
    const ticks = scale.ticks(count);
    if (ticks.length < 2 || pixels / (ticks.length - 1) >= spacing) return count;
  }
  return 2;
}
