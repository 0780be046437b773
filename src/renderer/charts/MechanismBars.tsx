/**
 * Fig. 5 (`mechanisms`) and Fig. 15 (`mechanisms-helpful`): one 100%-stacked horizontal bar per
 * judge, segments per flip mechanism, n at the end of each bar. Colours are Okabe–Ito and every
 * wide-enough segment carries its name and share, so the figure reads without colour.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo, useState } from 'react';
import { labClientFor } from '../lib/engine-client';
import { labStore } from '../store';
import { BarEnd } from './bar-ends';
import { ChartFrame } from './ChartFrame';
import type { ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatPercent } from './format';
import { legendHeight, SwatchLegend } from './legends';
import { mechanismBars, mechanismKeys, type MechanismKind } from './models/mechanisms';
import { textOn, type ChartPalette } from './palette';
import { PercentAxis } from './percent-axis';
import { readableNotes } from './table-values';
import { labelColumn, lineHeight, textWidth, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 928;
const emptyHeight = 300;
const top = 60;
const barHeight = 26;
const segmentSize = 10.5;

/** Okabe–Ito fills per mechanism (lighter variants on the dark background). */
function mechanismColor(key: string, palette: ChartPalette): string {
  const dark = palette.theme === 'dark';
  const colors: Record<string, string> = {
    over_trust: dark ? '#ef8a47' : '#d55e00',
    hallucination: dark ? '#e08cc0' : '#cc79a7',
    under_investigation: '#e69f00',
    better_investigation: dark ? '#2bbf8f' : '#009e73',
    lucky_deference: '#56b4e9',
    evidence_reweighting: dark ? '#3d8fd6' : '#0072b2',
  };
  return colors[key] ?? (dark ? '#6f7680' : '#a3a9b2');
}

/** Asks the engine to label the study's flips, then fetches the tables again. */
async function classifyStudy(studyId: string): Promise<string | null> {
  const address = labStore.getState().address;
  if (!address) return 'The engine is not connected.';
  const result = await labClientFor(address).classifyStudy({ studyId });
  await labStore.getState().loadResultTables();
  return result.ok ? null : result.error.message;
}

/** Props of a mechanism figure. */
interface MechanismBarsProps extends ResultChartProps<'mechanisms' | 'mechanisms-helpful'> {
  kind: MechanismKind;
}

/** The mechanism-mix card of harmful or helpful flips. */
export const MechanismBars = memo(function MechanismBars(props: MechanismBarsProps) {
  const { table, studyId, kind } = props;
  const { tooltip, show, hide } = useTooltip();
  const [classify, setClassify] = useState<{ running: boolean; error: string | null }>({
    running: false,
    error: null,
  });
  const bars = useMemo(() => mechanismBars(table), [table]);
  const filled = bars.length > 0;
  const notes = readableNotes(table);
  const unlabelled = notes.some((note) => note.includes('run cuelab classify'));
  const all = bars.find((bar) => bar.pooled)?.n ?? bars.reduce((sum, b) => sum + b.n, 0);
  const tableName = kind === 'harmful' ? 'mechanisms' : 'mechanisms-helpful';
  const label =
    kind === 'harmful' ? 'Harmful-flip mechanisms per judge' : 'Helpful-flip mechanisms';

  const runClassify = async () => {
    setClassify({ running: true, error: null });
    setClassify({ running: false, error: await classifyStudy(studyId) });
  };
  const classifyAction = unlabelled ? (
    <div className="chart-empty-action">
      <button
        type="button"
        className="button"
        data-testid={`classify-${tableName}`}
        disabled={classify.running}
        onClick={() => void runClassify()}
      >
        {classify.running ? 'Classifying…' : 'Classify flips'}
      </button>
      {classify.error && (
        <span className="chart-status chart-status-error" role="alert">
          {classify.error}
        </span>
      )}
    </div>
  ) : undefined;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const labelWidth = labelColumn(
      bars.map((bar) => bar.label),
      11,
      48,
      Math.min(220, width * 0.28),
      600,
    );
    const left = 16 + labelWidth + 8;
    const countWidth = Math.max(...bars.map((bar) => textWidth(`n = ${bar.n}`, 10.5)), 0);
    const right = width - 16 - countWidth - 8;
    const x = scaleLinear().domain([0, 100]).range([left, right]);
    const rowHeights = bars.map((bar) =>
      Math.max(
        barHeight + 10,
        wrapText(bar.label, labelWidth, 11, 600).length * lineHeight(11) + 8,
      ),
    );
    const rowTops = rowHeights.map((_, index) =>
      rowHeights.slice(0, index).reduce((sum, rowHeight) => sum + rowHeight, top),
    );
    const bottom = top + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0) + 4;
    const items = mechanismKeys[kind].map((entry) => ({
      label: entry.label,
      color: mechanismColor(entry.key, palette),
    }));
    const axisTitle = 'Share of labelled flips (%)';
    const titleLines = wrapText(axisTitle, right - left + 40, 11).length;
    const legendTop = bottom + 44 + (titleLines - 1) * lineHeight(11) + 8;
    const height = legendTop + legendHeight(items, width - 32) - 4;
    return (
      <Figure
        frame={frame}
        height={height}
        title={
          kind === 'harmful'
            ? 'Why cues flipped judges away from gold: mechanism mix per judge'
            : 'Why cues flipped judges onto gold: mechanism mix per judge'
        }
        subtitle={`n = ${all} labelled ${kind} flips · share of each judge’s flips (%)`}
        simulated={table?.simulated ?? false}
      >
        {bars.map((bar, index) => {
          const y0 = (rowTops[index] ?? top) + ((rowHeights[index] ?? barHeight) - barHeight) / 2;
          return (
            <g key={bar.judge} data-testid="mechanism-bar" data-judge={bar.judge}>
              <TextLines
                x={left - 8}
                y={y0 + barHeight / 2 + 4}
                text={bar.label}
                maxWidth={labelWidth}
                fontSize={11}
                fontWeight={bar.pooled ? 600 : 400}
                fill={palette.text}
                anchor="end"
                align="middle"
              />
              {bar.segments.map((segment) => {
                const x0 = x(segment.start);
                const w = x(segment.start + segment.pct) - x0;
                if (w <= 0) return null;
                const fill = mechanismColor(segment.key, palette);
                const mark = `${bar.judge}\u0000${segment.key}`;
                const count = Math.round((segment.pct / 100) * bar.n);
                const long = `${segment.label} ${segment.pct.toFixed(0)}%`;
                const short = `${segment.pct.toFixed(0)}%`;
                const text = textWidth(long, segmentSize) + 8 < w ? long : short;
                return (
                  <g
                    key={segment.key}
                    onMouseMove={(event) =>
                      show(
                        event,
                        mark,
                        <TooltipFacts
                          title={`${bar.label} · ${segment.label}`}
                          facts={[
                            ['Share', formatPercent(segment.pct)],
                            ['Flips', `${count} of ${bar.n}`],
                          ]}
                        />,
                      )
                    }
                    onMouseLeave={hide}
                  >
                    <rect
                      x={x0}
                      y={y0}
                      width={w}
                      height={barHeight}
                      fill={fill}
                      stroke={palette.background}
                      strokeWidth={1}
                      opacity={!frame.exporting && tooltip && tooltip.mark !== mark ? 0.6 : 1}
                    />
                    {textWidth(text, segmentSize) + 6 < w && (
                      <text
                        x={x0 + w / 2}
                        y={y0 + barHeight / 2 + 4}
                        textAnchor="middle"
                        fontSize={segmentSize}
                        fill={textOn(fill)}
                        pointerEvents="none"
                      >
                        {text}
                      </text>
                    )}
                  </g>
                );
              })}
              <BarEnd
                x={x}
                y={y0 + barHeight / 2}
                n={bar.n}
                countX={right + 8}
                countAnchor="start"
                countPrefix="n = "
                palette={palette}
              />
            </g>
          );
        })}
        <PercentAxis
          scale={x}
          offset={bottom}
          titleY={bottom + 32}
          title={axisTitle}
          palette={palette}
        />
        <SwatchLegend x={16} y={legendTop} items={items} palette={palette} maxWidth={width - 32} />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table={tableName}
      studyId={studyId}
      label={label}
      reference={kind === 'harmful' ? 'Fig. 5' : 'Fig. 15'}
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={notes}
      emptyTitle={`No labelled ${kind} flips yet`}
      emptyAction={classifyAction}
      tooltip={tooltip}
      hint="Hover a segment for its share; each bar sums to 100% of that judge’s labelled flips."
      figure={draw}
    />
  );
});
