/** Draws standalone SVG text onto a canvas at a scale (dpi / 96 for exports) and encodes a PNG. */

/** PNG bytes of an SVG drawn at `scale` times its CSS size. */
export async function svgToPng(
  svgText: string,
  size: { width: number; height: number },
  scale = 2,
): Promise<Uint8Array> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    image.decoding = 'sync';
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('The figure could not be drawn as an image.'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(size.width * scale);
    canvas.height = Math.round(size.height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This window cannot draw to a canvas.');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('The canvas could not be encoded as PNG.');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}
