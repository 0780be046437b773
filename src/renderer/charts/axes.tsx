/**
 * Axes: leaf components that own a `<g ref>` and let d3 draw into it (the second tier of
 * CONVENTIONS.md's "d3 in two tiers"). Colours and type are written as attributes so exports
 * keep them.
 */
import { axisBottom, axisLeft, select, type AxisDomain, type AxisScale } from 'd3';
import { useLayoutEffect, useRef } from 'react';
import { chartFont, type ChartPalette } from './palette';
import { TextLines } from './TextLines';

/** What an axis draws. */
export interface AxisProps<Domain extends AxisDomain> {
  orient: 'left' | 'bottom';
  scale: AxisScale<Domain>;
  /** Where the axis line sits: x for a left axis, y for a bottom one. */
  offset: number;
  palette: ChartPalette;
  ticks?: number;
  tickFormat?: (value: Domain) => string;
  /** Hide the axis line (a category axis under bars). */
  hideDomain?: boolean;
  /** Rotate tick labels by this many degrees (long category names). */
  rotate?: number;
}

/** One axis. */
export function Axis<Domain extends AxisDomain>(props: AxisProps<Domain>) {
  const { orient, scale, offset, palette, ticks, tickFormat, hideDomain, rotate } = props;
  const ref = useRef<SVGGElement>(null);
  useLayoutEffect(() => {
    if (!ref.current) return;
    const axis = (orient === 'left' ? axisLeft(scale) : axisBottom(scale))
      .tickSizeOuter(0)
      .tickSizeInner(4)
      .tickPadding(5);
    if (ticks !== undefined) axis.ticks(ticks);
    if (tickFormat) axis.tickFormat(tickFormat);
    const group = select(ref.current);
    group.call(axis);
    group.attr('font-family', chartFont).attr('font-size', 10.5);
    group
      .selectAll('.domain')
      .attr('stroke', palette.axis)
      .attr('opacity', hideDomain ? 0 : 1);
    group.selectAll('.tick line').attr('stroke', palette.axis);
    const labels = group
      .selectAll<SVGTextElement, Domain>('.tick text')
      .attr('fill', palette.muted);
    if (rotate) {
      labels
        .attr('transform', `rotate(${rotate})`)
        .attr('text-anchor', 'end')
        .attr('dx', '-0.4em')
        .attr('dy', '0.5em');
    }
  }, [orient, scale, palette, ticks, tickFormat, hideDomain, rotate]);
  const transform = orient === 'left' ? `translate(${offset},0)` : `translate(0,${offset})`;
  return <g ref={ref} transform={transform} />;
}

/** Horizontal gridlines at a linear scale's ticks (pure JSX, first tier). */
export function GridLines({
  ticks,
  y,
  x1,
  x2,
  palette,
}: {
  ticks: number[];
  y: (value: number) => number;
  x1: number;
  x2: number;
  palette: ChartPalette;
}) {
  return (
    <g>
      {ticks.map((tick) => (
        <line key={tick} x1={x1} x2={x2} y1={y(tick)} y2={y(tick)} stroke={palette.grid} />
      ))}
    </g>
  );
}

/** An axis title, rotated for a vertical axis; a horizontal one wraps at `maxWidth`. */
export function AxisTitle({
  x,
  y,
  text,
  palette,
  vertical = false,
  anchor = 'middle',
  maxWidth,
}: {
  x: number;
  y: number;
  text: string;
  palette: ChartPalette;
  vertical?: boolean;
  anchor?: 'start' | 'middle' | 'end';
  maxWidth?: number;
}) {
  if (!vertical && maxWidth !== undefined)
    return (
      <TextLines
        x={x}
        y={y}
        text={text}
        maxWidth={maxWidth}
        fontSize={11}
        fill={palette.muted}
        anchor={anchor}
      />
    );
  return (
    <text
      x={x}
      y={y}
      fontSize={11}
      fill={palette.muted}
      textAnchor={anchor}
      transform={vertical ? `rotate(-90 ${x} ${y})` : undefined}
    >
      {text}
    </text>
  );
}
