/** Figure and table exports: PNG at 2×, SVG, and the engine's CSV (what `cuelab report` prints). */
import type { LabApi } from '../../../shared/lab-api';
import { saveExport, type SaveOutcome } from './save-file';
import { serializeSvg, svgSize } from './serialize-svg';
import { svgToPng } from './svg-to-png';

/** A figure file format. */
export type FigureFormat = 'png' | 'svg';

/** The name every export of a study's table shares, e.g. `cuelab-1a2b3c4d-flips`. */
export function exportBaseName(studyId: string, table: string): string {
  return `cuelab-${studyId.slice(0, 8)}-${table}`;
}

/** Exports a figure as PNG (2× its CSS size) or SVG. */
export async function exportFigure(
  svg: SVGSVGElement,
  baseName: string,
  format: FigureFormat,
): Promise<SaveOutcome> {
  const text = serializeSvg(svg);
  if (format === 'svg') {
    return saveExport({
      title: 'Export figure as SVG',
      defaultName: `${baseName}.svg`,
      mimeType: 'image/svg+xml',
      filter: { name: 'SVG image', extensions: ['svg'] },
      data: text,
    });
  }
  const png = await svgToPng(text, svgSize(svg), 2);
  return saveExport({
    title: 'Export figure as PNG',
    defaultName: `${baseName}.png`,
    mimeType: 'image/png',
    filter: { name: 'PNG image', extensions: ['png'] },
    data: png,
  });
}

/** Exports a table as the engine prints it with `cuelab report --format csv`. */
export async function exportTableCsv(
  client: LabApi,
  studyId: string,
  table: string,
): Promise<SaveOutcome> {
  const result = await client.reportCsv({ studyId, table });
  if (!result.ok) throw new Error(result.error.message);
  return saveExport({
    title: 'Export table as CSV',
    defaultName: result.value.fileName,
    mimeType: 'text/csv',
    filter: { name: 'CSV table', extensions: ['csv'] },
    data: result.value.csv,
  });
}
