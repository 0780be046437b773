/**
 * A figure's SVG as a standalone file: namespaces, explicit size, nothing interactive. The
 * charts write every colour and font as attributes, so the text needs no stylesheet.
 */

const svgNamespace = 'http://www.w3.org/2000/svg';

/** Marks nodes that are only for the window (hover outlines, focus rings). */
export const EXPORT_EXCLUDE_ATTRIBUTE = 'data-export-exclude';

/** The SVG element's width and height in CSS pixels. */
export function svgSize(svg: SVGSVGElement): { width: number; height: number } {
  const width = Number(svg.getAttribute('width')) || svg.getBoundingClientRect().width;
  const height = Number(svg.getAttribute('height')) || svg.getBoundingClientRect().height;
  return { width, height };
}

/** Serializes a figure to SVG text with an XML declaration. */
export function serializeSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  for (const node of clone.querySelectorAll(`[${EXPORT_EXCLUDE_ATTRIBUTE}]`)) node.remove();
  const { width, height } = svgSize(svg);
  clone.setAttribute('xmlns', svgNamespace);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.setAttribute('version', '1.1');
  clone.removeAttribute('role');
  const text = new XMLSerializer().serializeToString(clone);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}
