/**
 * Colours and type of every figure, as literal values (not CSS variables) so an exported SVG or
 * PNG looks the same outside the window. Categorical colours are Okabe–Ito (colour-blind safe);
 * rates use a sequential single-hue-progression scale (OrRd), never a rainbow.
 */
import { interpolateOrRd } from 'd3';
import { useLab } from '../store';
import type { Theme } from '../store/theme-slice';

/** The colours one figure is drawn with. */
export interface ChartPalette {
  readonly theme: Theme;
  /** Figure background: explicit, so exports are legible on any page. */
  readonly background: string;
  readonly text: string;
  readonly muted: string;
  readonly faint: string;
  /** Gridlines. */
  readonly grid: string;
  /** Axis lines and ticks. */
  readonly axis: string;
  /** A cell or bar with no value. */
  readonly empty: string;
  /** Hover outline. */
  readonly highlight: string;
  /** The SIMULATED mark. */
  readonly simulated: string;
  readonly simulatedSoft: string;
  /** Severity (cue asserts FAIL) and leniency (cue asserts PASS), App. D colours. */
  readonly severity: string;
  readonly leniency: string;
  /** "Before" and "after" of a mitigation. */
  readonly before: string;
  readonly after: string;
  /** One colour per judge or series. */
  readonly categorical: readonly string[];
}

/**
 * The font stack written on every SVG text and used to measure it. Arial, Liberation Sans and
 * Helvetica share their advance widths, so a label measured here fits wherever the file opens;
 * a generic sans-serif comes last.
 */
export const chartFont = "Arial, 'Liberation Sans', Helvetica, 'Nimbus Sans', sans-serif";

const light: ChartPalette = {
  theme: 'light',
  background: '#ffffff',
  text: '#1d2025',
  muted: '#5b626c',
  faint: '#868c96',
  grid: '#eceef1',
  axis: '#a3a9b2',
  empty: '#f0f1f3',
  highlight: '#1d2025',
  simulated: '#6a3fb5',
  simulatedSoft: '#f1ecfa',
  severity: '#d55e00',
  leniency: '#0072b2',
  before: '#a3a9b2',
  after: '#0072b2',
  categorical: ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#7a7a7a'],
};

const dark: ChartPalette = {
  theme: 'dark',
  background: '#1d2024',
  text: '#e4e6e9',
  muted: '#a2a8b1',
  faint: '#7b828c',
  grid: '#2a2e34',
  axis: '#5d636c',
  empty: '#262a2f',
  highlight: '#ffffff',
  simulated: '#c3aef5',
  simulatedSoft: '#2e2843',
  severity: '#ef8a47',
  leniency: '#56b4e9',
  before: '#6f7680',
  after: '#56b4e9',
  categorical: ['#56b4e9', '#e69f00', '#2bbf8f', '#e08cc0', '#f0e442', '#ef8a47', '#b0b0b0'],
};

/** The palette of a theme. */
export function chartPalette(theme: Theme): ChartPalette {
  return theme === 'dark' ? dark : light;
}

/** The palette of the window's current theme. */
export function useChartPalette(): ChartPalette {
  return chartPalette(useLab((state) => state.theme));
}

/**
 * The fill of a rate on a 0..max scale. The lightest tenth of OrRd is skipped so a 0% cell
 * still reads as a cell on a white background.
 */
export function rateColor(value: number, max: number): string {
  const t = Math.max(0, Math.min(1, value / max));
  return interpolateOrRd(0.08 + 0.87 * t);
}

/** Black or white, whichever reads better on a fill (WCAG relative luminance). */
export function textOn(fill: string): string {
  const match = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(fill) ?? /^#(..)(..)(..)$/.exec(fill);
  if (!match) return '#1d2025';
  const channels = match.slice(1, 4).map((part) => {
    const value = (fill.startsWith('#') ? parseInt(part, 16) : Number(part)) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const [r = 0, g = 0, b = 0] = channels;
  // Above 0.179 dark text has the higher contrast ratio, below it white does.
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#1d2025' : '#ffffff';
}

/** The upper end of a rate axis: at least 50%, else the next 25% step; stable while data streams. */
export function rateDomainMax(values: readonly (number | null)[]): number {
  const highest = Math.max(0, ...values.filter((value): value is number => value !== null));
  return Math.min(100, Math.max(50, Math.ceil(highest / 25) * 25));
}
