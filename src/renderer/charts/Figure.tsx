/**
 * The SVG root of every figure: an explicit background, the title, a subtitle with n, and the
 * SIMULATED mark when synthetic-judge data is behind it. Everything a reader needs is inside
 * the SVG, so an exported file stands on its own.
 */
import type { ReactNode, RefObject } from 'react';
import { chartFont, type ChartPalette } from './palette';

/** The words of the mark, as every report format prints them. */
export const SIMULATED_MARK = 'SIMULATED: synthetic-judge data';

/** What a figure shows around its plot. */
export interface FigureProps {
  svgRef: RefObject<SVGSVGElement | null>;
  width: number;
  height: number;
  title: string;
  /** One line under the title: what is plotted and its n. */
  subtitle: string;
  simulated: boolean;
  palette: ChartPalette;
  children: ReactNode;
}

/** Height of the strip above every figure that carries the SIMULATED mark. */
export const FIGURE_BAND = 22;

/**
 * A self-contained figure. The SVG is FIGURE_BAND taller than `height`: the strip on top says
 * SIMULATED when synthetic data is behind the figure, so the mark never crowds a title.
 */
export function Figure(props: FigureProps) {
  const { svgRef, width, height, title, subtitle, simulated, palette, children } = props;
  const total = height + FIGURE_BAND;
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
          <text x={16} y={15} fontSize={10.5} fill={palette.simulated}>
            <tspan fontWeight={700} letterSpacing={0.4}>
              {SIMULATED_MARK}
            </tspan>
            <tspan dx={8}>not a measurement of a real model</tspan>
          </text>
        </g>
      )}
      <g transform={`translate(0,${FIGURE_BAND})`}>
        <text x={16} y={24} fontSize={13} fontWeight={600} fill={palette.text}>
          {title}
        </text>
        <text x={16} y={42} fontSize={11} fill={palette.muted}>
          {subtitle}
        </text>
        {children}
      </g>
    </svg>
  );
}
