/**
 * The comparison's figure with PNG and SVG export like every figure in the window: a journal's
 * column width or the window's, 300 or 600 dpi written into the PNG, drawn again off screen in
 * the light theme so a file never depends on the window.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { LabResponse } from '../../../shared/lab-api';
import { chartFont, chartPalette, useChartPalette } from '../../charts/palette';
import { ExportOptions } from '../../charts/ExportOptions';
import { MIN_FIGURE_WIDTH } from '../../charts/figure-frame';
import { exportFigure } from '../../lib/export/export-figure';
import {
  exportWidth,
  sizeTag,
  type FigureDpi,
  type FigureSize,
} from '../../lib/export/figure-sizes';
import { DifferenceFigure } from './DifferenceFigure';
import { differenceRows } from './difference-rows';
import '../../charts/charts.css';

type Comparison = LabResponse<'compareStudies'>;

/** The figure's drawn width in the panel: the panel's width, never under a single column. */
function usePanelWidth(box: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(MIN_FIGURE_WIDTH, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

/** The figure of B − A with its export controls. */
export function DifferenceCard({ comparison }: { comparison: Comparison }) {
  const palette = useChartPalette();
  const boxRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const stageRef = useRef<SVGSVGElement>(null);
  const width = usePanelWidth(boxRef);
  const [size, setSize] = useState<FigureSize>('double');
  const [dpi, setDpi] = useState<FigureDpi>(300);
  const [status, setStatus] = useState<string | null>(null);
  const rows = differenceRows(comparison.rates);
  const figure = {
    rows,
    nameA: comparison.studyA.name,
    nameB: comparison.studyB.name,
    simulated: comparison.simulated,
  };
  const baseName = `compare-${comparison.studyA.id.slice(0, 8)}-${comparison.studyB.id.slice(0, 8)}-${sizeTag(size, width)}`;

  async function save(format: 'png' | 'svg') {
    const svg = stageRef.current;
    if (!svg) return;
    try {
      const outcome = await exportFigure(svg, baseName, {
        format,
        dpi,
        fontFamily: chartFont,
        title: 'Flip rates compared',
      });
      setStatus(outcome === null ? 'Export cancelled.' : `${format.toUpperCase()} saved.`);
    } catch (error) {
      setStatus(error instanceof Error ? error.message : String(error));
    }
  }

  if (rows.length === 0) return null;
  return (
    <div className="compare-figure" ref={boxRef} data-testid="compare-figure">
      <div className="compare-actions">
        <h3>Figure: B − A per judge × condition</h3>
        <div className="compare-export" role="group" aria-label="Export the comparison figure">
          <span className="chart-status" aria-live="polite">
            {status}
          </span>
          <ExportOptions
            testIdPrefix="compare-export"
            size={size}
            dpi={dpi}
            onSize={setSize}
            onDpi={setDpi}
          />
          {(['png', 'svg'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="button"
              data-testid={`compare-export-${format}`}
              title={`Export the figure as ${format.toUpperCase()}, light theme, at the chosen size`}
              onClick={() => void save(format)}
            >
              {format.toUpperCase()}
            </button>
          ))}
        </div>
      </div>
      <DifferenceFigure frame={{ width, palette, svgRef, exporting: false }} {...figure} />
      <div className="chart-export-stage" aria-hidden="true">
        <DifferenceFigure
          frame={{
            width: exportWidth(size, width),
            palette: chartPalette('light'),
            svgRef: stageRef,
            exporting: true,
          }}
          {...figure}
        />
      </div>
    </div>
  );
}
