/**
 * A small RGB raster with rectangles, lines and text in a 5×7 pixel font (capitals, digits
 * and the punctuation figure labels use; any other character draws as "?"). Text is drawn in
 * capitals: the font has no lower case.
 */
import { encodePng } from './png';

/** An RGB colour. */
export type Rgb = readonly [number, number, number];

// Each glyph: 7 rows of 5 pixels, written as 0/1 strings, top row first.
const glyphRows: Record<string, string> = {
  ' ': '00000 00000 00000 00000 00000 00000 00000',
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11110 10001 10001 10001 10001 10001 11110',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  I: '01110 00100 00100 00100 00100 00100 01110',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 10001 11001 10101 10011 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 10001 01010 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '3': '11111 00010 00100 00010 00001 10001 01110',
  '4': '00010 00110 01010 10010 11111 00010 00010',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '6': '00110 01000 10000 11110 10001 10001 01110',
  '7': '11111 00001 00010 00100 01000 01000 01000',
  '8': '01110 10001 10001 01110 10001 10001 01110',
  '9': '01110 10001 10001 01111 00001 00010 01100',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ',': '00000 00000 00000 00000 01100 00100 01000',
  ':': '00000 01100 01100 00000 01100 01100 00000',
  ';': '00000 01100 01100 00000 01100 00100 01000',
  '%': '11000 11001 00010 00100 01000 10011 00011',
  '(': '00010 00100 01000 01000 01000 00100 00010',
  ')': '01000 00100 00010 00010 00010 00100 01000',
  '[': '01110 01000 01000 01000 01000 01000 01110',
  ']': '01110 00010 00010 00010 00010 00010 01110',
  '-': '00000 00000 00000 11111 00000 00000 00000',
  '+': '00000 00100 00100 11111 00100 00100 00000',
  '/': '00000 00001 00010 00100 01000 10000 00000',
  _: '00000 00000 00000 00000 00000 00000 11111',
  '=': '00000 00000 11111 00000 11111 00000 00000',
  "'": '00100 00100 01000 00000 00000 00000 00000',
  '×': '00000 10001 01010 00100 01010 10001 00000',
  '#': '01010 01010 11111 01010 11111 01010 01010',
  '@': '01110 10001 00001 01101 10101 10101 01110',
  '?': '01110 10001 00001 00010 00100 00000 00100',
  '!': '00100 00100 00100 00100 00100 00000 00100',
  '|': '00100 00100 00100 00100 00100 00100 00100',
  '<': '00010 00100 01000 10000 01000 00100 00010',
  '>': '01000 00100 00010 00001 00010 00100 01000',
  '·': '00000 00000 00000 01100 01100 00000 00000',
};

const glyphs = new Map(
  Object.entries(glyphRows).map(([char, rows]) => [
    char,
    rows.split(' ').map((row) => [...row].map((bit) => bit === '1')),
  ]),
);

/** Pixels one character advances at scale 1 (5 wide and a 1-pixel gap). */
const advance = 6;

/** An RGB raster to draw on and encode. */
export class Raster {
  private readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.fill(0, 0, width, height, background);
  }

  /** Fills the rectangle (clipped to the raster). */
  fill(x: number, y: number, w: number, h: number, colour: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let row = y0; row < y1; row += 1) {
      for (let col = x0; col < x1; col += 1) this.pixels.set(colour, (row * this.width + col) * 3);
    }
  }

  /** The width `text` takes at `scale`. */
  static textWidth(text: string, scale: number): number {
    return Math.max(0, [...text].length * advance * scale - scale);
  }

  /** Draws `text` (in capitals) with its top-left corner at (x, y); returns its width. */
  text(x: number, y: number, text: string, colour: Rgb, scale = 2): number {
    let cursor = x;
    for (const char of text.toUpperCase()) {
      const glyph = glyphs.get(char) ?? glyphs.get('?');
      glyph?.forEach((row, dy) =>
        row.forEach((on, dx) => {
          if (on) this.fill(cursor + dx * scale, y + dy * scale, scale, scale, colour);
        }),
      );
      cursor += advance * scale;
    }
    return cursor - x - scale;
  }

  /** The colour at (x, y). */
  at(x: number, y: number): Rgb {
    const offset = (y * this.width + x) * 3;
    return [this.pixels[offset] ?? 0, this.pixels[offset + 1] ?? 0, this.pixels[offset + 2] ?? 0];
  }

  /** The raster as a PNG file. */
  png(): Buffer {
    return encodePng(this.width, this.height, this.pixels);
  }
}
