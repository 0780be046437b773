/**
 * The size and resolution pickers beside every figure's export buttons: a journal's column or
 * the window's width, and 300 or 600 dpi for a PNG.
 */
import { figureSizes, type FigureDpi, type FigureSize } from '../lib/export/figure-sizes';

/** The chosen size and dpi, and where their test ids start (e.g. `export-flips`). */
export interface ExportOptionsProps {
  testIdPrefix: string;
  size: FigureSize;
  dpi: FigureDpi;
  onSize: (size: FigureSize) => void;
  onDpi: (dpi: FigureDpi) => void;
}

/** The two pickers. */
export function ExportOptions({ testIdPrefix, size, dpi, onSize, onDpi }: ExportOptionsProps) {
  return (
    <>
      <select
        className="chart-export-option"
        aria-label="Export size"
        data-testid={`${testIdPrefix}-size`}
        value={size}
        onChange={(event) => onSize(event.target.value as FigureSize)}
      >
        {Object.entries(figureSizes).map(([key, entry]) => (
          <option key={key} value={key}>
            {entry.label}
          </option>
        ))}
      </select>
      <select
        className="chart-export-option"
        aria-label="PNG resolution"
        data-testid={`${testIdPrefix}-dpi`}
        value={dpi}
        onChange={(event) => onDpi(Number(event.target.value) === 600 ? 600 : 300)}
      >
        <option value={300}>300 dpi</option>
        <option value={600}>600 dpi</option>
      </select>
    </>
  );
}
