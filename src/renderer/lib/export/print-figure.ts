/**
 * Vector PDF of a figure: Chromium prints a page holding only the figure's SVG, its page set
 * to the figure's size in inches, so the PDF keeps text as text and lines as paths. In the
 * desktop window and in a browser the print dialog's "Save as PDF" writes the file.
 */
import { CSS_PIXELS_PER_INCH } from './figure-sizes';

/** The HTML page that prints as exactly the figure: no margins, one page, the SVG alone. */
export function figurePrintPage(
  svgText: string,
  size: { width: number; height: number },
  title: string,
): string {
  const inches = (pixels: number) => `${(pixels / CSS_PIXELS_PER_INCH).toFixed(4)}in`;
  const svg = svgText.replace(/^<\?xml[^>]*>\s*/, '');
  const safeTitle = title.replace(/[<>&"]/g, '');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${safeTitle}</title>` +
    `<style>@page{size:${inches(size.width)} ${inches(size.height)};margin:0}` +
    'html,body{margin:0;padding:0;background:#fff}svg{display:block}' +
    '*{-webkit-print-color-adjust:exact;print-color-adjust:exact}</style>' +
    `</head><body>${svg}</body></html>`
  );
}

/** Opens the print dialog on the figure alone (a hidden frame), for "Save as PDF". */
export async function printFigure(
  svgText: string,
  size: { width: number; height: number },
  title: string,
): Promise<void> {
  const frame = document.createElement('iframe');
  frame.setAttribute('data-testid', 'figure-print-frame');
  frame.setAttribute('aria-hidden', 'true');
  frame.style.cssText = 'position:fixed;left:-10000px;top:0;width:1px;height:1px;border:0';
  frame.srcdoc = figurePrintPage(svgText, size, title);
  await new Promise<void>((resolve) => {
    frame.onload = () => resolve();
    document.body.append(frame);
  });
  const view = frame.contentWindow;
  if (!view) {
    frame.remove();
    throw new Error('This window cannot print.');
  }
  view.addEventListener('afterprint', () => frame.remove(), { once: true });
  view.focus();
  view.print();
}
