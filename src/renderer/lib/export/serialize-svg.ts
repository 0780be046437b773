/**
 * A figure's SVG as a standalone file: namespaces, a physical size in inches (what a journal's
 * layout reads), nothing interactive, and the font stack written on every text so no viewer
 * falls back to its own default serif.
 */
import { CSS_PIXELS_PER_INCH } from './figure-sizes';

const svgNamespace = 'http://www.w3.org/2000/svg';

/** Marks nodes that are only for the window (hover outlines, focus rings). */
export const EXPORT_EXCLUDE_ATTRIBUTE = 'data-export-exclude';

/** The SVG element's width and height in CSS pixels. */
export function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  const width = Number(svg.getAttribute('width')) || svg.getBoundingClientRect().width;
  const height = Number(svg.getAttribute('height')) || svg.getBoundingClientRect().height;
  return { width, height };
}

/** Serializes a figure to SVG text with an XML declaration, sized in inches. */
export function serializeSvg(svg: SVGSVGElement, fontFamily: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  for (const node of clone.querySelectorAll(`[${EXPORT_EXCLUDE_ATTRIBUTE}]`)) node.remove();
  for (const node of clone.querySelectorAll('[role], [tabindex]')) {
    node.removeAttribute('role');
    node.removeAttribute('tabindex');
  }
  for (const text of clone.querySelectorAll('text')) text.setAttribute('font-family', fontFamily);
  const { width, height } = svgSize(svg);
  const inches = (pixels: number) => `${(pixels / CSS_PIXELS_PER_INCH).toFixed(4)}in`;
  clone.setAttribute('xmlns', svgNamespace);
  clone.setAttribute('width', inches(width));
  clone.setAttribute('height', inches(height));
  clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  clone.setAttribute('font-family', fontFamily);
  clone.setAttribute('version', '1.1');
  const text = new XMLSerializer().serializeToString(clone);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}
