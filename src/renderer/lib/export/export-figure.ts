/**
 * Figure and table exports: PNG at 300 or 600 dpi, SVG sized in inches, a vector PDF through
 * Chromium's print, and the engine's CSV (what `cuelab report` prints).
 */
import type { LabApi } from '../../../shared/lab-api';
import { CSS_PIXELS_PER_INCH, type FigureDpi } from './figure-sizes';
import { withPngDensity } from './png-density';
import { printFigure } from './print-figure';
import { saveExport, type SaveOutcome } from './save-file';
import { serializeSvg, svgSize } from './serialize-svg';
import { svgToPng } from './svg-to-png';

/** A figure file format. */
export type FigureFormat = 'png' | 'svg' | 'pdf';

/** The name every export of a study's table shares, e.g. `cuelab-1a2b3c4d-flips`. */
export function exportBaseName(studyId: string, table: string): string {
  return `cuelab-${studyId.slice(0, 8)}-${table}`;
}

/** How a figure is written: format, PNG resolution and the font stack of its text. */
export interface FigureExportOptions {
  format: FigureFormat;
  dpi: FigureDpi;
  fontFamily: string;
  /** The figure's title, for the print dialog. */
  title: string;
}

/**
 * Exports a drawn figure. The PNG is `dpi / 96` times the figure's CSS size, so a 7.16 in
 * figure at 300 dpi is 2148 pixels wide, and says its dpi; a PDF opens the print dialog.
 */
export async function exportFigure(
  svg: SVGSVGElement,
  baseName: string,
  options: FigureExportOptions,
): Promise<SaveOutcome> {
  const text = serializeSvg(svg, options.fontFamily);
  if (options.format === 'pdf') {
    await printFigure(text, svgSize(svg), baseName);
    return { saved: 'print' };
  }
  if (options.format === 'svg') {
    return saveExport({
      title: 'Export figure as SVG',
      defaultName: `${baseName}.svg`,
      mimeType: 'image/svg+xml',
      filter: { name: 'SVG image', extensions: ['svg'] },
      data: text,
    });
  }
  const png = await svgToPng(text, svgSize(svg), options.dpi / CSS_PIXELS_PER_INCH);
  return saveExport({
    title: 'Export figure as PNG',
    defaultName: `${baseName}.png`,
    mimeType: 'image/png',
    filter: { name: 'PNG image', extensions: ['png'] },
    data: withPngDensity(png, options.dpi),
  });
}

/** Exports a table as the engine prints it with `cuelab report --format csv`. */
export async function exportTableCsv(
  client: LabApi,
  studyId: string,
  table: string,
  options: { tolerancePp?: number } = {},
): Promise<SaveOutcome> {
  const result = await client.reportCsv({ studyId, table, ...options });
  if (!result.ok) throw new Error(result.error.message);
  return saveCsv('Export table as CSV', result.value.fileName, result.value.csv);
}

/** Saves CSV text the engine formatted (a report table, a comparison). */
export function saveCsv(title: string, fileName: string, csv: string): Promise<SaveOutcome> {
  return saveExport({
    title,
    defaultName: fileName,
    mimeType: 'text/csv',
    filter: { name: 'CSV table', extensions: ['csv'] },
    data: csv,
  });
}
