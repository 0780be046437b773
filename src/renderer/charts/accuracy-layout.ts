/**
 * Where Table 5's columns go at a width. Wide: judge (and dataset) names in columns beside N,
 * the three accuracies and the #HF / #HELP counts. When the accuracies do not fit beside the
 * names even in their compact form, each row's names take a line of their own across the table
 * with the counts at its right, and the numbers go on the line under it: nothing leaves the box.
 */
import { labelColumn, lineHeight, mostLines, textWidth, wrapText } from './text-layout';

/** How a measure's cell is drawn: bar, % and CI in a line; the CI under them; or no bar. */
export type CellMode = 'line' | 'stacked' | 'compact';

/** The bar of an accuracy cell, in pixels. */
export const barWidth = 58;
const gap = 12;
const narrowGap = 8;
const headerTop = 66;

const percentWidth = () => textWidth('100.0%', 11, 600);
const intervalWidth = () => textWidth('[100.0, 100.0]', 9.5);

/** Where the interval starts in a `line` cell, after the bar and the percentage. */
export function intervalOffset(): number {
  return barWidth + 6 + percentWidth() + 4;
}

function cellWidth(mode: CellMode): number {
  if (mode === 'line') return intervalOffset() + intervalWidth();
  if (mode === 'stacked') return Math.max(barWidth + 6 + percentWidth(), intervalWidth());
  return Math.max(percentWidth(), intervalWidth());
}

/** What the layout needs to know of each row. */
export interface AccuracyLayoutRow {
  readonly judgeName: string;
  readonly dataset: string | null;
  readonly n: number;
}

/** Every position the table draws at. */
export interface AccuracyLayout {
  /** Names on their own line above the numbers. */
  readonly narrow: boolean;
  readonly mode: CellMode;
  readonly gap: number;
  readonly judgeWidth: number;
  readonly datasetX: number;
  readonly datasetWidth: number;
  readonly nRight: number;
  readonly firstColumn: number;
  readonly column: number;
  readonly countX: number;
  readonly helpX: number;
  /** Baseline of the names' header ("Judge", "#HF") when it has a line of its own. */
  readonly namesHeaderY: number;
  /** Baseline of the last header line. */
  readonly headerY: number;
  readonly rowHeights: readonly number[];
  /** Baseline of each row's first name line. */
  readonly rowBaselines: readonly number[];
  /** Baseline of each row's numbers. */
  readonly valueBaselines: readonly number[];
  readonly tableBottom: number;
}

/** Lays the table out at `width` for `rows`; `labels` are the three measures' headers. */
export function accuracyLayout(
  width: number,
  rows: readonly AccuracyLayoutRow[],
  labels: readonly string[],
): AccuracyLayout {
  const withDataset = rows.some((row) => row.dataset !== null);
  const nWidth = Math.max(textWidth('N', 10.5), ...rows.map((row) => textWidth(String(row.n), 11)));
  const countWidth = Math.max(textWidth('#HELP', 10.5), textWidth('9999', 11));
  const modes: CellMode[] = ['line', 'stacked', 'compact'];
  const fixed = 32 + nWidth + 2 * (countWidth + gap) + 4 * gap;
  const nameShare = (width - fixed) * (withDataset ? 0.22 : 0.3);
  const judgeNames = rows.map((row) => row.judgeName);
  const datasets = rows.map((row) => row.dataset ?? '');
  const judgeWidth = labelColumn(judgeNames, 11, 50, Math.min(230, nameShare), 600);
  const datasetWidth = withDataset ? labelColumn(datasets, 11, 50, Math.min(200, nameShare)) : 0;
  const rest = width - fixed - judgeWidth - (withDataset ? datasetWidth + gap : 0);
  const narrow = 3 * cellWidth('compact') + 2 * gap > rest;
  const lh = lineHeight(11);
  if (!narrow) {
    const mode = modes.find((entry) => 3 * cellWidth(entry) + 2 * gap <= rest) ?? 'compact';
    const column = Math.max(cellWidth(mode), (rest - 2 * gap) / 3);
    const datasetX = 16 + judgeWidth + gap;
    const nRight = (withDataset ? datasetX + datasetWidth + gap : datasetX) + nWidth;
    const firstColumn = nRight + gap;
    const countX = firstColumn + 3 * column + 2 * gap + countWidth;
    const headerY = headerTop + mostLines(labels, column, 10.5) * lineHeight(10.5);
    const minRow = mode === 'line' ? 24 : 36;
    const rowHeights = rows.map((row) => {
      const lines = Math.max(
        wrapText(row.judgeName, judgeWidth, 11, 600).length,
        withDataset ? wrapText(row.dataset ?? '', datasetWidth, 11).length : 1,
      );
      return Math.max(minRow, lines * lh + 10);
    });
    const rowBaselines = stackRows(rowHeights, headerY + 7 + 17);
    return {
      narrow,
      mode,
      gap,
      judgeWidth,
      datasetX,
      datasetWidth,
      nRight,
      firstColumn,
      column,
      countX,
      helpX: countX + gap + countWidth,
      namesHeaderY: headerY,
      headerY,
      rowHeights,
      rowBaselines,
      valueBaselines: rowBaselines,
      tableBottom: headerY + 7 + rowHeights.reduce((sum, height) => sum + height, 0),
    };
  }
  const helpX = width - 16;
  const countX = helpX - countWidth - narrowGap;
  const nameWidth = countX - countWidth - narrowGap - 16;
  const nRight = 16 + nWidth;
  const firstColumn = nRight + narrowGap;
  const room = width - 16 - firstColumn - 2 * narrowGap;
  const mode = modes.find((entry) => 3 * cellWidth(entry) <= room) ?? 'compact';
  const column = room / 3;
  const namesHeaderY = headerTop + lineHeight(10.5);
  const headerY = namesHeaderY + 4 + mostLines(labels, column, 10.5) * lineHeight(10.5);
  const valueHeight = mode === 'line' ? 18 : 30;
  const nameLines = rows.map(
    (row) =>
      wrapText(row.judgeName, nameWidth, 11, 600).length +
      (row.dataset ? wrapText(row.dataset, nameWidth, 11).length : 0),
  );
  const rowHeights = nameLines.map((lines) => lines * lh + valueHeight + 6);
  const rowBaselines = stackRows(rowHeights, headerY + 7 + 17);
  return {
    narrow,
    mode,
    gap: narrowGap,
    judgeWidth: nameWidth,
    datasetX: 16,
    datasetWidth: nameWidth,
    nRight,
    firstColumn,
    column,
    countX,
    helpX,
    namesHeaderY,
    headerY,
    rowHeights,
    rowBaselines,
    valueBaselines: rowBaselines.map((y, index) => y + (nameLines[index] ?? 1) * lh + 2),
    tableBottom: headerY + 7 + rowHeights.reduce((sum, height) => sum + height, 0),
  };
}

function stackRows(heights: readonly number[], first: number): number[] {
  return heights.map((_, index) => heights.slice(0, index).reduce((sum, h) => sum + h, first));
}
