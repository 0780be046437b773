/**
 * The demo's figure: harmful flip rates per judge with the cue pointing each way (severity:
 * the cue says fail; leniency: it says pass; App. D), with their intervals, drawn as a PNG on
 * any machine, marked SIMULATED when synthetic reps stand behind it.
 */
import { Raster, type Rgb } from './raster';

/** One bar group: a judge (and its arm), its two rates and intervals, in percent. */
export interface DirectionBar {
  label: string;
  severity: { pct: number | null; low: number | null; high: number | null; gate: number };
  leniency: { pct: number | null; low: number | null; high: number | null; gate: number };
}

/** What the figure says besides its bars. */
export interface DirectionFigureOptions {
  title: string;
  simulated: boolean;
}

const ink: Rgb = [33, 37, 41];
const muted: Rgb = [108, 117, 125];
const grid: Rgb = [222, 226, 230];
const warning: Rgb = [176, 42, 55];
/** Severity and leniency colours (colour-blind safe pair). */
export const directionColours = { severity: [213, 94, 0], leniency: [0, 114, 178] } as const;

const scale = 2;
const lineHeight = 7 * scale;
const margin = 24;
const plotWidth = 560;
const barHeight = 18;
const groupGap = 22;

/** Draws the figure; the canvas grows to hold the longest label, so no text is cut. */
export function drawDirectionFigure(
  bars: readonly DirectionBar[],
  options: DirectionFigureOptions,
): Raster {
  const labelWidth = Math.max(120, ...bars.map((bar) => Raster.textWidth(bar.label, scale)));
  const valueWidth = Raster.textWidth('100.0% [100-100]', scale);
  const width = margin * 2 + labelWidth + 16 + plotWidth + 12 + valueWidth;
  const titleWidth = Raster.textWidth(options.title, scale);
  const canvasWidth = Math.max(width, margin * 2 + titleWidth);
  const top =
    margin + lineHeight + 10 + (options.simulated ? lineHeight + 10 : 0) + lineHeight + 16;
  const groupHeight = barHeight * 2 + 4;
  const plotHeight = Math.max(1, bars.length) * (groupHeight + groupGap);
  const height = top + plotHeight + lineHeight + 20 + margin;
  const raster = new Raster(canvasWidth, height);

  let y = margin;
  raster.text(margin, y, options.title, ink, scale);
  y += lineHeight + 10;
  if (options.simulated) {
    raster.text(margin, y, 'SIMULATED: synthetic-judge data', warning, scale);
    y += lineHeight + 10;
  }
  // Legend.
  let x = margin;
  for (const [name, colour] of Object.entries(directionColours)) {
    raster.fill(x, y + 2, 12, 10, colour);
    x +=
      18 +
      raster.text(
        x + 18,
        y,
        `${name} (cue says ${name === 'severity' ? 'fail' : 'pass'})`,
        ink,
        scale,
      ) +
      24;
  }

  const plotLeft = margin + labelWidth + 16;
  const toX = (pct: number) => plotLeft + (Math.min(100, Math.max(0, pct)) / 100) * plotWidth;
  // Grid and axis labels at 0, 25, 50, 75, 100 %.
  for (const tick of [0, 25, 50, 75, 100]) {
    raster.fill(toX(tick), top - 6, 1, plotHeight + 6, tick === 0 ? muted : grid);
    const label = `${tick}%`;
    raster.text(
      toX(tick) - Raster.textWidth(label, scale) / 2,
      top + plotHeight + 8,
      label,
      muted,
      scale,
    );
  }

  bars.forEach((bar, index) => {
    const groupTop = top + index * (groupHeight + groupGap) + groupGap / 2;
    raster.text(margin, groupTop + groupHeight / 2 - lineHeight / 2, bar.label, ink, scale);
    (['severity', 'leniency'] as const).forEach((direction, row) => {
      const value = bar[direction];
      const barTop = groupTop + row * (barHeight + 4);
      const colour = directionColours[direction];
      if (value.pct !== null)
        raster.fill(plotLeft, barTop, toX(value.pct) - plotLeft, barHeight, colour);
      if (value.low !== null && value.high !== null) {
        const mid = barTop + barHeight / 2;
        raster.fill(toX(value.low), mid - 1, Math.max(1, toX(value.high) - toX(value.low)), 2, ink);
        raster.fill(toX(value.low), mid - 5, 2, 10, ink);
        raster.fill(toX(value.high) - 1, mid - 5, 2, 10, ink);
      }
      const text =
        value.pct === null
          ? `n/a (gate ${value.gate})`
          : `${value.pct.toFixed(1)}%` +
            (value.low !== null && value.high !== null
              ? ` [${Math.round(value.low)}-${Math.round(value.high)}]`
              : '');
      const end = Math.max(toX(value.pct ?? 0), value.high !== null ? toX(value.high) : 0);
      raster.text(end + 8, barTop + (barHeight - lineHeight) / 2, text, ink, scale);
    });
  });
  return raster;
}
