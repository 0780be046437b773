/**
 * The sizes a figure exports at. Journals set figures to a column: 3.5 in for a single column
 * and 7.16 in for a double one (IEEE and ACM two-column templates; Elsevier's 90 / 190 mm are
 * within a millimetre), at 300 dpi for line art with colour fills or 600 dpi for fine lines.
 */

/** CSS pixels in an inch: the unit every figure is laid out in. */
export const CSS_PIXELS_PER_INCH = 96;

/** Where an exported figure goes. */
export type FigureSize = 'double' | 'single' | 'screen';

/** The resolutions a PNG is written at. */
export type FigureDpi = 300 | 600;

/** Each size's name in the picker and its width in inches (null: the window's width). */
export const figureSizes: Record<FigureSize, { label: string; inches: number | null }> = {
  double: { label: 'Double column, 7.16 in', inches: 7.16 },
  single: { label: 'Single column, 3.5 in', inches: 3.5 },
  screen: { label: 'As on screen', inches: null },
};

/** The figure width in CSS pixels an export at `size` is drawn at. */
export function exportWidth(size: FigureSize, screenWidth: number): number {
  const inches = figureSizes[size].inches;
  return inches === null ? screenWidth : inches * CSS_PIXELS_PER_INCH;
}

/**
 * The size as it goes into an export's file name (`3.5in`, `7.16in`, or the window's `860px`),
 * so a single-column file never overwrites a double-column one.
 */
export function sizeTag(size: FigureSize, screenWidth: number): string {
  const inches = figureSizes[size].inches;
  return inches === null ? `${Math.round(screenWidth)}px` : `${inches}in`;
}
