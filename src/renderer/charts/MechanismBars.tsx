/**
 * Fig. 5 (`mechanisms`) and Fig. 15 (`mechanisms-helpful`): one 100%-stacked horizontal bar per
 * judge, segments per flip mechanism, n at the end of each bar. Colours are Okabe–Ito and every
 * wide-enough segment carries its name and share, so the figure reads without colour.
 */
import { scaleBand, scaleLinear } from 'd3';
import { memo, useMemo, useRef, useState } from 'react';
import { labClientFor } from '../lib/engine-client';
import { labStore } from '../store';
import { BarEnd } from './bar-ends';
import { ChartFrame } from './ChartFrame';
import type { ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatPercent } from './format';
import { SwatchLegend } from './legends';
import { mechanismBars, mechanismKeys, type MechanismKind } from './models/mechanisms';
import { textOn, useChartPalette, type ChartPalette } from './palette';
import { PercentAxis } from './percent-axis';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 928;
const height = 300;
const left = 150;
const right = 84;
const top = 60;
const bottom = height - 62;

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
  const result = await labClientFor(address).classifyFlips({ studyId });
  await labStore.getState().loadResultTables();
  return result.ok ? null : result.error.message;
}

/** Props of a mechanism figure. */
interface MechanismBarsProps extends ResultChartProps {
  kind: MechanismKind;
}

/** The mechanism-mix card of harmful or helpful flips. */
export const MechanismBars = memo(function MechanismBars(props: MechanismBarsProps) {
  const { table, studyId, kind } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const [classify, setClassify] = useState<{ running: boolean; error: string | null }>({
    running: false,
    error: null,
  });
  const bars = useMemo(() => mechanismBars(table, kind), [table, kind]);
  const filled = bars.length > 0;
  const notes = readableNotes(table);
  const unlabelled = notes.some((note) => note.includes('run cuelab classify'));
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([0, 100])
        .range([left, width - right]),
    [],
  );
  const y = useMemo(
    () =>
      scaleBand<string>()
        .domain(bars.map((bar) => bar.judge))
        .range([top, bottom])
        .paddingInner(0.3)
        .paddingOuter(0.15),
    [bars],
  );
  const barHeight = Math.min(34, y.bandwidth());
  const all = bars.find((bar) => bar.judge === 'all')?.n ?? bars.reduce((sum, b) => sum + b.n, 0);
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

  return (
    <ChartFrame
      table={tableName}
      studyId={studyId}
      label={label}
      reference={kind === 'harmful' ? 'Fig. 5' : 'Fig. 15'}
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={notes}
      emptyTitle={`No labelled ${kind} flips yet`}
      emptyAction={classifyAction}
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Hover a segment for its share; each bar sums to 100% of that judge’s labelled flips."
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title={
          kind === 'harmful'
            ? 'Why cues flipped judges away from gold: mechanism mix per judge'
            : 'Why cues flipped judges onto gold: mechanism mix per judge'
        }
        subtitle={`n = ${all} labelled ${kind} flips · share of each judge’s flips (%)`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        {bars.map((bar) => {
          const y0 = (y(bar.judge) ?? top) + (y.bandwidth() - barHeight) / 2;
          return (
            <g key={bar.judge} data-testid="mechanism-bar" data-judge={bar.judge}>
              <text
                x={left - 8}
                y={y0 + barHeight / 2 + 4}
                textAnchor="end"
                fontSize={11}
                fontWeight={bar.judge === 'all' ? 600 : 400}
                fill={palette.text}
              >
                <title>{bar.label}</title>
                {clip(bar.label, 22)}
              </text>
              {bar.segments.map((segment) => {
                const x0 = x(segment.start);
                const w = x(segment.start + segment.pct) - x0;
                if (w <= 0) return null;
                const fill = mechanismColor(segment.key, palette);
                const mark = `${bar.judge}\u0000${segment.key}`;
                const count = Math.round((segment.pct / 100) * bar.n);
                const long = `${segment.label} ${segment.pct.toFixed(0)}%`;
                const text = long.length * 6.2 + 8 < w ? long : `${segment.pct.toFixed(0)}%`;
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
                      opacity={tooltip && tooltip.mark !== mark ? 0.6 : 1}
                    />
                    {text.length * 6.2 + 6 < w && (
                      <text
                        x={x0 + w / 2}
                        y={y0 + barHeight / 2 + 4}
                        textAnchor="middle"
                        fontSize={10.5}
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
                countX={width - right + 8}
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
          title="Share of labelled flips (%)"
          palette={palette}
        />
        <SwatchLegend
          x={left}
          y={height - 8}
          items={mechanismKeys[kind].map((entry) => ({
            label: entry.label,
            color: mechanismColor(entry.key, palette),
          }))}
          palette={palette}
        />
      </Figure>
    </ChartFrame>
  );
});
