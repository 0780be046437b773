/**
 * Writes a PNG's resolution (its pHYs chunk), so a 300 dpi export opens at 3.5 in in a layout
 * program instead of at the 72 or 96 dpi a canvas encoder implies.
 */

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The PNG with a pHYs chunk of `dpi` right after its header (any earlier pHYs is dropped). */
export function withPngDensity(png: Uint8Array, dpi: number): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const headerEnd = 8 + 8 + view.getUint32(8) + 4;
  const chunks: Uint8Array[] = [png.subarray(0, headerEnd)];
  const density = new Uint8Array(21);
  const chunk = new DataView(density.buffer);
  const perMetre = Math.round(dpi / 0.0254);
  chunk.setUint32(0, 9);
  density.set([0x70, 0x48, 0x59, 0x73], 4);
  chunk.setUint32(8, perMetre);
  chunk.setUint32(12, perMetre);
  density[16] = 1;
  chunk.setUint32(17, crc32(density.subarray(4, 17)));
  chunks.push(density);
  for (let offset = headerEnd; offset < png.length;) {
    const length = view.getUint32(offset);
    const end = offset + 12 + length;
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (type !== 'pHYs') chunks.push(png.subarray(offset, end));
    offset = end;
  }
  const out = new Uint8Array(chunks.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of chunks) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
