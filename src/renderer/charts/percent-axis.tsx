/**
 * The bottom percentage axis of the horizontal bar charts (effect bars, graded flips, mechanism
 * mix): as many ticks in percent as fit without touching, and the axis title centred under
 * the plot (wrapped when the plot is narrow).
 */
import type { ScaleLinear } from 'd3';
import { Axis, AxisTitle } from './axes';
import { percentTick } from './format';
import type { ChartPalette } from './palette';
import { fittingTicks } from './text-layout';

/** A percentage axis at `offset`, titled `title` at height `titleY`. */
export function PercentAxis({
  scale,
  offset,
  titleY,
  title,
  palette,
}: {
  scale: ScaleLinear<number, number>;
  offset: number;
  titleY: number;
  title: string;
  palette: ChartPalette;
}) {
  const [start = 0, end = 0] = scale.range();
  return (
    <>
      <Axis
        orient="bottom"
        scale={scale}
        offset={offset}
        palette={palette}
        ticks={fittingTicks(scale)}
        tickFormat={percentTick}
      />
      <AxisTitle
        x={(start + end) / 2}
        y={titleY}
        text={title}
        palette={palette}
        maxWidth={end - start + 40}
      />
    </>
  );
}
