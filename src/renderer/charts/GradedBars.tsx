/**
 * App. G graded flips: one horizontal bar per judge and cued condition, the share of cued items
 * whose score moved at least the study's `gradedFlipThreshold` points toward the cue, with its
 * 95% CI and n; the tooltip splits it into harmful and helpful against the consensus gold.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo } from 'react';
import { CountHeading } from './bar-ends';
import { BarRow, barRowLayout } from './bar-row';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatCount, formatInterval, formatPercent } from './format';
import { gradedBars, type GradedBar } from './models/graded';
import { rateDomainMax } from './palette';
import { PercentAxis } from './percent-axis';
import { readableNotes } from './table-values';
import { fittingTicks } from './text-layout';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 456;
const emptyHeight = 380;
const top = 64;
const axisTitle = 'Cued items flipped, % (95% Wilson CI)';

function facts(bar: GradedBar): [string, string][] {
  return [
    ['Flipped', formatPercent(bar.value)],
    ['95% CI', formatInterval(bar.low, bar.high)],
    ['Cued items', formatCount(bar.n)],
    [
      'Harmful (cue away from gold)',
      `${formatPercent(bar.harmfulPct)} of ${formatCount(bar.gate)}`,
    ],
    ['Helpful (cue toward gold)', `${formatPercent(bar.helpfulPct)} of ${formatCount(bar.wrong)}`],
    ['Mean shift toward cue', bar.meanShift === null ? '—' : `${bar.meanShift.toFixed(1)} points`],
  ];
}

/** The graded-flip card. */
export const GradedBars = memo(function GradedBars(props: ResultChartProps<'graded'>) {
  const { table, studyId, onOpenReps } = props;
  const { tooltip, show, hide } = useTooltip();
  const { bars, threshold } = useMemo(() => gradedBars(table), [table]);
  const max = rateDomainMax(bars.map((bar) => bar.high ?? bar.value));

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const { left, right, labelWidth, rowHeights, rowTops, bottom, height } = barRowLayout(
      width,
      bars,
      top,
      axisTitle,
    );
    const x = scaleLinear().domain([0, max]).range([left, right]);
    return (
      <Figure
        frame={frame}
        height={height}
        title="Graded flips per judge"
        subtitle={`cued items ≥ ${threshold ?? '—'} points toward the cue · whiskers: 95% CI`}
        simulated={table?.simulated ?? false}
      >
        {x.ticks(fittingTicks(x)).map((tick) => (
          <line key={tick} x1={x(tick)} x2={x(tick)} y1={top} y2={bottom} stroke={palette.grid} />
        ))}
        <CountHeading x={width - 8} y={top - 6} palette={palette} />
        {bars.map((bar, index) => {
          const rowHeight = rowHeights[index] ?? 26;
          const y = (rowTops[index] ?? top) + rowHeight / 2;
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
                barHeight={16}
                labelWidth={labelWidth}
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
          titleY={bottom + 32}
          title={axisTitle}
          palette={palette}
        />
      </Figure>
    );
  };
  return (
    <ChartFrame
      table="graded"
      studyId={studyId}
      label="Graded flips"
      reference="App. G"
      width={preferredWidth}
      height={emptyHeight}
      filled={bars.length > 0}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No graded (1–100) scores with a control arm"
      tooltip={tooltip}
      hint="Click a bar for its reps."
      figure={draw}
    />
  );
});
