/** Fig. 13: severity vs leniency gold-gated harmful flip rates, from `severity`, in panels. */
import { scaleBand, scaleLinear } from 'd3';
import { memo, useMemo, useRef } from 'react';
import { Axis, AxisTitle, GridLines } from './axes';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatInterval, formatPercent, percentTick } from './format';
import { SwatchLegend } from './legends';
import { directionPanels, type DirectionGroup, type DirectionRate } from './models/direction';
import { rateDomainMax, textOn, useChartPalette } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 928;
const height = 372;
const left = 64;
const right = 16;
const top = 86;
const bottom = height - 104;
const panelGap = 28;

type Direction = 'severity' | 'leniency';

function rateFacts(direction: Direction, rate: DirectionRate): [string, string][] {
  return [
    [
      direction === 'severity' ? 'Severity (cue asserts FAIL)' : 'Leniency (cue asserts PASS)',
      formatPercent(rate.pct),
    ],
    ['95% CI (Wilson)', formatInterval(rate.low, rate.high)],
    ['Harmful flips / gate', `${rate.harmful} / ${rate.gate}`],
  ];
}

/** The direction-asymmetry card. */
export const DirectionBars = memo(function DirectionBars(props: ResultChartProps) {
  const { table, studyId, arm, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const panels = useMemo(() => directionPanels(table, arm), [table, arm]);
  const filled = panels.length > 0;
  const max = rateDomainMax(
    panels.flatMap((panel) =>
      panel.groups.flatMap((group) => [group.severity.high, group.leniency.high]),
    ),
  );
  const y = useMemo(() => scaleLinear().domain([0, max]).range([bottom, top]), [max]);
  const panelWidth =
    (width - left - right - panelGap * Math.max(0, panels.length - 1)) / Math.max(1, panels.length);
  const all = panels[0]?.groups.reduce((sum, group) => sum + group.n, 0) ?? 0;

  const bar = (
    group: DirectionGroup,
    direction: Direction,
    x: number,
    barWidth: number,
    key: string,
  ) => {
    const rate = group[direction];
    const color = direction === 'severity' ? palette.severity : palette.leniency;
    const mark = `${key}\u0000${direction}`;
    const value = rate.pct ?? 0;
    return (
      <g
        key={direction}
        onMouseMove={(event) =>
          show(
            event,
            mark,
            <TooltipFacts
              title={group.label}
              facts={[...rateFacts(direction, rate), ['Items gated (n)', String(group.n)]]}
            />,
          )
        }
        onMouseLeave={hide}
      >
        <rect
          x={x}
          y={y(value)}
          width={barWidth}
          height={Math.max(0, bottom - y(value))}
          fill={rate.pct === null ? palette.empty : color}
          opacity={tooltip && tooltip.mark !== mark ? 0.55 : 1}
        />
        {rate.low !== null && rate.high !== null && (
          <g stroke={palette.text} strokeWidth={1}>
            <line x1={x + barWidth / 2} x2={x + barWidth / 2} y1={y(rate.low)} y2={y(rate.high)} />
            <line
              x1={x + barWidth / 2 - 3}
              x2={x + barWidth / 2 + 3}
              y1={y(rate.high)}
              y2={y(rate.high)}
            />
            <line
              x1={x + barWidth / 2 - 3}
              x2={x + barWidth / 2 + 3}
              y1={y(rate.low)}
              y2={y(rate.low)}
            />
          </g>
        )}
        {barWidth >= 22 && (
          <text
            x={x + barWidth / 2}
            y={bottom - 4}
            textAnchor="middle"
            fontSize={9.5}
            fill={textOn(color)}
            opacity={bottom - y(value) > 16 ? 1 : 0}
          >
            {rate.pct === null ? '' : rate.pct.toFixed(0)}
          </text>
        )}
      </g>
    );
  };

  return (
    <ChartFrame
      table="severity"
      studyId={studyId}
      label="Severity vs leniency"
      reference="Fig. 13"
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gated items in either direction yet"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Hover a bar for its CI and counts; click a group for its reps."
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="Severity vs leniency: gold-gated harmful flip rate by cue direction"
        subtitle={`${armLabel(arm)} · n = ${all} gated items · bars: rate, whiskers: 95% Wilson CI`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        <GridLines ticks={y.ticks(5)} y={y} x1={left} x2={width - right} palette={palette} />
        <Axis
          orient="left"
          scale={y}
          offset={left}
          palette={palette}
          ticks={5}
          tickFormat={percentTick}
        />
        <AxisTitle
          x={18}
          y={(top + bottom) / 2}
          text="Harmful flip rate (%)"
          palette={palette}
          vertical
        />
        {panels.map((panel, panelIndex) => {
          const x0 = left + panelIndex * (panelWidth + panelGap);
          const band = scaleBand<string>()
            .domain(panel.groups.map((group) => `${group.label}`))
            .range([x0 + 8, x0 + panelWidth - 4])
            .paddingInner(0.28)
            .paddingOuter(0.1);
          const barWidth = Math.min(28, band.bandwidth() / 2);
          const longest = Math.max(...panel.groups.map((group) => group.label.length));
          const rotate = longest * 6 > band.step() - 4;
          return (
            <g key={panel.id}>
              <text x={x0 + 8} y={top - 10} fontSize={11} fontWeight={600} fill={palette.text}>
                {panel.title}
              </text>
              <line x1={x0} x2={x0 + panelWidth} y1={bottom} y2={bottom} stroke={palette.axis} />
              {panel.groups.map((group) => {
                const center = (band(group.label) ?? 0) + band.bandwidth() / 2;
                const key = `${panel.id}\u0000${group.label}`;
                const open = () =>
                  onOpenReps({
                    title: `${group.label} · ${arm?.condition ?? 'all'} (${panel.title})`,
                    ...(group.judge ? { judgeId: group.judge } : {}),
                    ...(group.dataset ? { dataset: group.dataset } : {}),
                    ...(arm ? { conditionKeys: [arm.condition, 'uncued'] } : {}),
                  });
                return (
                  <g
                    key={key}
                    role="button"
                    tabIndex={0}
                    aria-label={`${group.label}: severity ${formatPercent(group.severity.pct)}, leniency ${formatPercent(group.leniency.pct)}`}
                    style={{ cursor: 'pointer' }}
                    onClick={open}
                    onKeyDown={onActivate(open)}
                  >
                    {bar(group, 'severity', center - barWidth, barWidth, key)}
                    {bar(group, 'leniency', center, barWidth, key)}
                    <text
                      x={center}
                      y={bottom + 13}
                      textAnchor="middle"
                      fontSize={9.5}
                      fill={palette.faint}
                    >
                      {`n=${group.n}`}
                    </text>
                    <text
                      x={center}
                      y={bottom + 27}
                      fontSize={10.5}
                      fill={palette.text}
                      textAnchor={rotate ? 'end' : 'middle'}
                      transform={rotate ? `rotate(-28 ${center} ${bottom + 27})` : undefined}
                    >
                      <title>{group.label}</title>
                      {clip(group.label, rotate ? 16 : 24)}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
        <SwatchLegend
          x={left}
          y={height - 10}
          items={[
            { label: 'Severity: cue asserts FAIL on a gold-PASS item', color: palette.severity },
            { label: 'Leniency: cue asserts PASS on a gold-FAIL item', color: palette.leniency },
          ]}
          palette={palette}
        />
      </Figure>
    </ChartFrame>
  );
});
