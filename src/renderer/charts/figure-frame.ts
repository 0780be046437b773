/** What a figure is drawn for: the window, or an export at a journal's width in light theme. */
import type { ReactNode, RefObject } from 'react';
import type { ChartPalette } from './palette';

/** The width, colours and SVG handle one drawing of a figure uses. */
export interface FigureFrame {
  /** Figure width in CSS pixels (96 a inch). */
  readonly width: number;
  readonly palette: ChartPalette;
  readonly svgRef: RefObject<SVGSVGElement | null>;
  /** True for the off-screen drawing an export is made from (no hover state in it). */
  readonly exporting: boolean;
}

/** Draws a figure for a frame; ChartFrame calls it for the window and for every export. */
export type DrawFigure = (frame: FigureFrame) => ReactNode;

/** The narrowest a figure is drawn: a journal's single column, 3.5 in. */
export const MIN_FIGURE_WIDTH = 336;
