/**
 * App. G graded flips: one horizontal bar per judge and cued condition, the share of cued reps
 * whose score moved at least the study's `gradedFlipThreshold` points, with its 95% CI and n.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo, useRef } from 'react';
import { CountHeading } from './bar-ends';
import { BarRow } from './bar-row';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { formatCount, formatInterval, formatPercent } from './format';
import { gradedBars, type GradedBar } from './models/graded';
import { rateDomainMax, useChartPalette } from './palette';
import { PercentAxis } from './percent-axis';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 456;
const height = 380;
const left = 150;
const right = 52;
const top = 58;
const bottom = height - 52;

function facts(bar: GradedBar): [string, string][] {
  return [
    ['Flipped', formatPercent(bar.value)],
    ['95% CI', formatInterval(bar.low, bar.high)],
    ['Cued reps', formatCount(bar.n)],
    ['Mean shift', bar.meanShift === null ? '—' : `${bar.meanShift.toFixed(1)} points`],
  ];
}

/** The graded-flip card. */
export const GradedBars = memo(function GradedBars(props: ResultChartProps) {
  const { table, studyId, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const { bars, threshold } = useMemo(() => gradedBars(table), [table]);
  const max = rateDomainMax(bars.map((bar) => bar.high ?? bar.value));
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([0, max])
        .range([left, width - right]),
    [max],
  );
  const rowHeight = Math.min(34, (bottom - top) / Math.max(1, bars.length));
  const barHeight = Math.min(16, rowHeight * 0.62);
  return (
    <ChartFrame
      table="graded"
      studyId={studyId}
      label="Graded flips"
      reference="App. G"
      width={width}
      height={height}
      filled={bars.length > 0}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No graded (1–100) scores with a control arm"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Click a bar for its reps."
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="Graded flips per judge"
        subtitle={`cued reps ≥ ${threshold ?? '—'} points from the uncued mean · whiskers: 95% CI`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        {x.ticks(5).map((tick) => (
          <line key={tick} x1={x(tick)} x2={x(tick)} y1={top} y2={bottom} stroke={palette.grid} />
        ))}
        <CountHeading x={width - 8} y={top - 6} palette={palette} />
        {bars.map((bar, index) => {
          const y = top + index * rowHeight + rowHeight / 2;
          const mark = `${bar.condition}\u0000${bar.judge}`;
          const open = () =>
            onOpenReps({
              title: `${bar.condition} · ${bar.label}`,
              ...(bar.judge !== 'all' ? { judgeId: bar.judge } : {}),
              conditionKeys: [bar.condition, 'uncued'],
            });
          return (
            <g
              key={mark}
              role="button"
              tabIndex={0}
              aria-label={`${bar.label} ${bar.detail}: ${formatPercent(bar.value)}`}
              style={{ cursor: 'pointer' }}
              onMouseMove={(event) =>
                show(
                  event,
                  mark,
                  <TooltipFacts title={`${bar.label} · ${bar.detail}`} facts={facts(bar)} />,
                )
              }
              onMouseLeave={hide}
              onClick={open}
              onKeyDown={onActivate(open)}
            >
              <BarRow
                x={x}
                y={y}
                rowHeight={rowHeight}
                barHeight={barHeight}
                label={bar.label}
                detail={bar.detail}
                value={bar.value}
                low={bar.low}
                high={bar.high}
                n={bar.n}
                countX={width - 8}
                palette={palette}
              />
            </g>
          );
        })}
        <line x1={x(0)} x2={x(0)} y1={top} y2={bottom} stroke={palette.axis} />
        <PercentAxis
          scale={x}
          offset={bottom}
          titleY={height - 14}
          title="Cued reps flipped, % (95% Wilson CI)"
          palette={palette}
        />
      </Figure>
    </ChartFrame>
  );
});
