/** Legends drawn in the SVG (so exports carry them): swatches and a sequential colour ramp. */
import { scaleLinear } from 'd3';
import { rateColor, type ChartPalette } from './palette';
import { lineHeight, textWidth, wrapText } from './text-layout';
import { TextLines } from './TextLines';

/** One legend entry. */
export interface LegendItem {
  label: string;
  color: string;
  /** Square swatch (bars), a line with a dot (series), or a filled / hollow dot (dumbbells). */
  shape?: 'square' | 'line' | 'dot' | 'ring';
}

const legendSize = 11;
const swatch = 18;
const entryGap = 14;
const legendRow = lineHeight(legendSize) + 4;

/**
 * Where each legend entry goes: rows that break before an entry would pass `maxWidth`; a label
 * wider than a whole row wraps, and its row grows by the lines it takes.
 */
export function legendLayout(items: readonly LegendItem[], maxWidth: number) {
  const places: { dx: number; y: number; labelWidth: number }[] = [];
  const rowLines: number[] = [];
  const rowOf: number[] = [];
  let dx = 0;
  let row = 0;
  for (const item of items) {
    const labelWidth = Math.min(maxWidth - swatch, textWidth(item.label, legendSize));
    const entry = swatch + labelWidth;
    if (dx > 0 && dx + entry > maxWidth) {
      dx = 0;
      row += 1;
    }
    const lines = wrapText(item.label, labelWidth + 1, legendSize).length;
    rowLines[row] = Math.max(rowLines[row] ?? 1, lines);
    rowOf.push(row);
    places.push({ dx, y: 0, labelWidth });
    dx += entry + entryGap;
  }
  const rowTops = rowLines.map((_, index) =>
    rowLines
      .slice(0, index)
      .reduce((sum, lines) => sum + legendRow + (lines - 1) * lineHeight(legendSize), 0),
  );
  for (const [index, place] of places.entries()) place.y = rowTops[rowOf[index] ?? 0] ?? 0;
  const height = rowLines.reduce(
    (sum, lines) => sum + legendRow + (lines - 1) * lineHeight(legendSize),
    0,
  );
  return { places, rows: rowLines.length, height };
}

/** How tall a legend of `items` is at `maxWidth`. */
export function legendHeight(items: readonly LegendItem[], maxWidth: number): number {
  return legendLayout(items, maxWidth).height;
}

/**
 * Entries in rows, each as wide as its measured label; an entry that would pass `maxWidth`
 * starts a new row, so a legend never runs off the figure. `y` is the first row's baseline.
 */
export function SwatchLegend({
  x,
  y,
  items,
  palette,
  maxWidth,
}: {
  x: number;
  y: number;
  items: LegendItem[];
  palette: ChartPalette;
  maxWidth: number;
}) {
  const { places } = legendLayout(items, maxWidth);
  return (
    <g>
      {items.map((item, index) => {
        const place = places[index] ?? { dx: 0, y: 0, labelWidth: maxWidth };
        return (
          <g key={item.label} transform={`translate(${x + place.dx},${y + place.y})`}>
            {item.shape === 'line' && (
              <>
                <line x1={0} x2={14} y1={-4} y2={-4} stroke={item.color} strokeWidth={2} />
                <circle cx={7} cy={-4} r={3} fill={item.color} />
              </>
            )}
            {item.shape === 'dot' && <circle cx={6} cy={-4} r={4.5} fill={item.color} />}
            {item.shape === 'ring' && (
              <circle cx={6} cy={-4} r={4} fill="none" stroke={item.color} strokeWidth={2} />
            )}
            {(item.shape ?? 'square') === 'square' && (
              <rect x={0} y={-10} width={11} height={11} rx={2} fill={item.color} />
            )}
            <TextLines
              x={swatch}
              y={0}
              text={item.label}
              maxWidth={place.labelWidth + 1}
              fontSize={legendSize}
              fill={palette.text}
            />
          </g>
        );
      })}
    </g>
  );
}

/** How far above the ramp its title reaches when wrapped at `titleWidth`. */
export function rampTitleHeight(title: string, titleWidth: number): number {
  return wrapText(title, titleWidth, 11).length * lineHeight(11);
}

/** A sequential ramp for rates from 0 to `max` percent, with ticks and a wrapped title above. */
export function RateRamp({
  x,
  y,
  width,
  max,
  title,
  titleWidth,
  palette,
}: {
  x: number;
  y: number;
  width: number;
  max: number;
  title: string;
  titleWidth: number;
  palette: ChartPalette;
}) {
  const steps = 48;
  const stepWidth = width / steps;
  const ticks = scaleLinear()
    .domain([0, max])
    .ticks(Math.max(2, Math.min(5, Math.floor(width / 44))));
  return (
    <g transform={`translate(${x},${y})`}>
      <TextLines
        x={0}
        y={-6}
        text={title}
        maxWidth={titleWidth}
        fontSize={11}
        fill={palette.muted}
        align="bottom"
      />
      {Array.from({ length: steps }, (_, index) => (
        <rect
          key={index}
          x={index * stepWidth}
          y={0}
          width={stepWidth + 0.5}
          height={10}
          fill={rateColor(((index + 0.5) / steps) * max, max)}
        />
      ))}
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(${(tick / max) * width},0)`}>
          <line y1={10} y2={14} stroke={palette.axis} />
          <text y={25} fontSize={10} textAnchor="middle" fill={palette.muted}>
            {`${Math.round(tick)}%`}
          </text>
        </g>
      ))}
    </g>
  );
}
