/**
 * The SVG root of every figure: an explicit background, the title, a subtitle with n, and the
 * SIMULATED mark when synthetic-judge data is behind it. Everything a reader needs is inside
 * the SVG, so an exported file stands on its own. Title and subtitle wrap to the figure's
 * width; the plot moves down by the extra lines, so nothing is cut at a single column's width.
 */
import type { ReactNode } from 'react';
import type { FigureFrame } from './figure-frame';
import { chartFont } from './palette';
import { lineHeight, textWidth, wrapText } from './text-layout';

/** The words of the mark, as every report format prints them. */
export const SIMULATED_MARK = 'SIMULATED: synthetic-judge data';
const simulatedNote = 'not a measurement of a real model';

/** What a figure shows around its plot. */
export interface FigureProps {
  frame: FigureFrame;
  /** Height of the plot area below the band, for a one-line title and subtitle. */
  height: number;
  title: string;
  /** What is plotted and its n; wraps onto more lines when the figure is narrow. */
  subtitle: string;
  simulated: boolean;
  children: ReactNode;
}

/** Height of the strip above every figure that carries the SIMULATED mark. */
export const FIGURE_BAND = 22;

const margin = 16;
const titleSize = 13;
const subtitleSize = 11;

/** The title's and subtitle's lines at a width, and how far they push the plot down. */
export function figureHeader(width: number, title: string, subtitle: string) {
  const titleLines = wrapText(title, width - 2 * margin, titleSize, 600);
  const subtitleLines = wrapText(subtitle, width - 2 * margin, subtitleSize);
  const extra =
    (titleLines.length - 1) * lineHeight(titleSize) +
    (subtitleLines.length - 1) * lineHeight(subtitleSize);
  return { titleLines, subtitleLines, extra };
}

/**
 * A self-contained figure. The SVG is FIGURE_BAND taller than `height` (plus any wrapped
 * header lines): the strip on top says SIMULATED when synthetic data is behind the figure.
 */
export function Figure(props: FigureProps) {
  const { frame, height, title, subtitle, simulated, children } = props;
  const { width, palette, svgRef } = frame;
  const { titleLines, subtitleLines, extra } = figureHeader(width, title, subtitle);
  const total = height + FIGURE_BAND + extra;
  const markWidth = textWidth(SIMULATED_MARK, 10.5, 700) + 0.4 * SIMULATED_MARK.length;
  const noteFits = margin + markWidth + 8 + textWidth(simulatedNote, 10.5) < width - margin;
  const subtitleTop = 42 + (titleLines.length - 1) * lineHeight(titleSize);
  return (
    <svg
      ref={svgRef}
      xmlns="http://www.w3.org/2000/svg"
      width={width}
      height={total}
      viewBox={`0 0 ${width} ${total}`}
      fontFamily={chartFont}
      fontSize={11}
      style={{ fontVariantNumeric: 'tabular-nums' }}
      role="img"
      aria-label={simulated ? `${title} (${SIMULATED_MARK})` : title}
    >
      <rect width={width} height={total} fill={palette.background} />
      {simulated && (
        <g data-simulated-mark="">
          <rect width={width} height={FIGURE_BAND} fill={palette.simulatedSoft} />
          <line
            x1={0}
            x2={width}
            y1={FIGURE_BAND - 0.5}
            y2={FIGURE_BAND - 0.5}
            stroke={palette.simulated}
            strokeOpacity={0.5}
          />
          <text x={margin} y={15} fontSize={10.5} fill={palette.simulated}>
            <tspan fontWeight={700} letterSpacing={0.4}>
              {SIMULATED_MARK}
            </tspan>
            {noteFits && <tspan dx={8}>{simulatedNote}</tspan>}
          </text>
        </g>
      )}
      <g transform={`translate(0,${FIGURE_BAND})`}>
        <text x={margin} y={24} fontSize={titleSize} fontWeight={600} fill={palette.text}>
          {titleLines.map((line, index) => (
            <tspan key={index} x={margin} dy={index === 0 ? 0 : lineHeight(titleSize)}>
              {line}
            </tspan>
          ))}
        </text>
        <text x={margin} y={subtitleTop} fontSize={subtitleSize} fill={palette.muted}>
          {subtitleLines.map((line, index) => (
            <tspan key={index} x={margin} dy={index === 0 ? 0 : lineHeight(subtitleSize)}>
              {line}
            </tspan>
          ))}
        </text>
        <g transform={extra > 0 ? `translate(0,${extra})` : undefined}>{children}</g>
      </g>
    </svg>
  );
}
