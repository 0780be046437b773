/** Legends drawn in the SVG (so exports carry them): swatches and a sequential colour ramp. */
import { scaleLinear } from 'd3';
import { rateColor, type ChartPalette } from './palette';

/** One legend entry. */
export interface LegendItem {
  label: string;
  color: string;
  /** Square swatch (bars), a line with a dot (series), or a filled / hollow dot (dumbbells). */
  shape?: 'square' | 'line' | 'dot' | 'ring';
}

/** Entries in a row, each as wide as its label needs (estimated at 6 px a character). */
export function SwatchLegend({
  x,
  y,
  items,
  palette,
}: {
  x: number;
  y: number;
  items: LegendItem[];
  palette: ChartPalette;
}) {
  const offsets = items.map((_, index) =>
    items.slice(0, index).reduce((sum, item) => sum + 26 + item.label.length * 6, x),
  );
  return (
    <g>
      {items.map((item, index) => {
        const left = offsets[index] ?? x;
        return (
          <g key={item.label} transform={`translate(${left},${y})`}>
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
            <text x={18} y={0} fontSize={11} fill={palette.text}>
              {item.label}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** A sequential ramp for rates from 0 to `max` percent, with ticks and a title. */
export function RateRamp({
  x,
  y,
  width,
  max,
  title,
  palette,
}: {
  x: number;
  y: number;
  width: number;
  max: number;
  title: string;
  palette: ChartPalette;
}) {
  const steps = 48;
  const stepWidth = width / steps;
  const ticks = scaleLinear().domain([0, max]).ticks(5);
  return (
    <g transform={`translate(${x},${y})`}>
      <text x={0} y={-6} fontSize={11} fill={palette.muted}>
        {title}
      </text>
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
