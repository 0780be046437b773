/** Fig. 13: severity vs leniency gold-gated harmful flip rates, from `severity`, in panels. */
import { scaleBand, scaleLinear } from 'd3';
import { memo, useMemo } from 'react';
import { Axis, AxisTitle, GridLines } from './axes';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatInterval, formatPercent, percentTick } from './format';
import { legendHeight, SwatchLegend, type LegendItem } from './legends';
import { directionPanels, type DirectionGroup, type DirectionRate } from './models/direction';
import { rateDomainMax, type ChartPalette } from './palette';
import { readableNotes } from './table-values';
import { fittingTicks, lineHeight, mostLines, textWidth } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 928;
const emptyHeight = 372;
const left = 64;
const right = 16;
const top = 58;
const plotHeight = 180;
const panelGap = 28;
const valueSize = 9.5;

function legendItems(palette: ChartPalette): LegendItem[] {
  return [
    { label: 'Severity: cue asserts FAIL on a gold-PASS item', color: palette.severity },
    { label: 'Leniency: cue asserts PASS on a gold-FAIL item', color: palette.leniency },
  ];
}

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
export const DirectionBars = memo(function DirectionBars(props: ResultChartProps<'severity'>) {
  const { table, studyId, arm, onOpenReps } = props;
  const { tooltip, show, hide } = useTooltip();
  const panels = useMemo(() => directionPanels(table, arm), [table, arm]);
  const filled = panels.length > 0;
  const max = rateDomainMax(
    panels.flatMap((panel) =>
      panel.groups.flatMap((group) => [group.severity.high, group.leniency.high]),
    ),
  );
  const all = panels[0]?.groups.reduce((sum, group) => sum + group.n, 0) ?? 0;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const panelWidth =
      (width - left - right - panelGap * Math.max(0, panels.length - 1)) /
      Math.max(1, panels.length);
    const bands = panels.map((panel, panelIndex) => {
      const x0 = left + panelIndex * (panelWidth + panelGap);
      return scaleBand<string>()
        .domain(panel.groups.map((group) => group.label))
        .range([x0 + 8, x0 + panelWidth - 4])
        .paddingInner(0.28)
        .paddingOuter(0.1);
    });
    const labelWidth = (index: number) => Math.max(24, (bands[index]?.step() ?? 60) - 6);
    const titleLines = Math.max(
      1,
      ...panels.map((panel) => mostLines([panel.title], panelWidth - 8, 11, 600)),
    );
    const plotTop = top + titleLines * lineHeight(11) + 14;
    const bottom = plotTop + plotHeight;
    const groupLines = Math.max(
      1,
      ...panels.map((panel, index) =>
        mostLines(
          panel.groups.map((group) => group.label),
          labelWidth(index),
          10.5,
        ),
      ),
    );
    const axisTitleY = (plotTop + bottom) / 2;
    // Names that would wrap into a column of syllables read better turned upright.
    const upright = groupLines > 3;
    const longestGroup = Math.max(
      0,
      ...panels.flatMap((panel) => panel.groups.map((group) => textWidth(group.label, 10.5))),
    );
    const labelsHeight = upright ? longestGroup + 6 : groupLines * lineHeight(10.5);
    const legendTop = bottom + 30 + labelsHeight + 10;
    const items = legendItems(palette);
    const height = legendTop + legendHeight(items, width - left - right) - 4;
    const y = scaleLinear().domain([0, max]).range([bottom, plotTop]);
    const yTicks = fittingTicks(y, 28);

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
      const valueText = rate.pct === null ? '' : rate.pct.toFixed(0);
      // The value sits above the whisker's top (or the bar), never on the whisker itself.
      const valueY = Math.min(y(value), rate.high === null ? bottom : y(rate.high)) - 4;
      const valueFits = textWidth(valueText, valueSize) + 2 <= barWidth;
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
            opacity={!frame.exporting && tooltip && tooltip.mark !== mark ? 0.55 : 1}
          />
          {rate.low !== null && rate.high !== null && (
            <g stroke={palette.text} strokeWidth={1} data-part="whisker">
              <line
                x1={x + barWidth / 2}
                x2={x + barWidth / 2}
                y1={y(rate.low)}
                y2={y(rate.high)}
              />
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
          {valueFits && valueText && (
            <text
              x={x + barWidth / 2}
              y={valueY}
              textAnchor="middle"
              fontSize={valueSize}
              fill={palette.muted}
            >
              {valueText}
            </text>
          )}
        </g>
      );
    };

    return (
      <Figure
        frame={frame}
        height={height}
        title="Severity vs leniency: gold-gated harmful flip rate by cue direction"
        subtitle={`${armLabel(arm)} · n = ${all} gated items · bars: rate, whiskers: 95% Wilson CI`}
        simulated={table?.simulated ?? false}
      >
        <GridLines ticks={y.ticks(yTicks)} y={y} x1={left} x2={width - right} palette={palette} />
        <Axis
          orient="left"
          scale={y}
          offset={left}
          palette={palette}
          ticks={yTicks}
          tickFormat={percentTick}
        />
        <AxisTitle x={18} y={axisTitleY} text="Harmful flip rate (%)" palette={palette} vertical />
        {panels.map((panel, panelIndex) => {
          const x0 = left + panelIndex * (panelWidth + panelGap);
          const band = bands[panelIndex];
          if (!band) return null;
          const barWidth = Math.min(28, band.bandwidth() / 2);
          return (
            <g key={panel.id}>
              <TextLines
                x={x0 + 8}
                y={top + 8}
                text={panel.title}
                maxWidth={panelWidth - 8}
                fontSize={11}
                fontWeight={600}
                fill={palette.text}
              />
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
                    {upright ? (
                      <text
                        x={center + 4}
                        y={bottom + 20}
                        transform={`rotate(-90 ${center + 4} ${bottom + 20})`}
                        textAnchor="end"
                        fontSize={10.5}
                        fill={palette.text}
                      >
                        {group.label}
                      </text>
                    ) : (
                      <TextLines
                        x={center}
                        y={bottom + 27}
                        text={group.label}
                        maxWidth={labelWidth(panelIndex)}
                        fontSize={10.5}
                        fill={palette.text}
                        anchor="middle"
                      />
                    )}
                  </g>
                );
              })}
            </g>
          );
        })}
        <SwatchLegend
          x={left}
          y={legendTop}
          items={items}
          palette={palette}
          maxWidth={width - left - right}
        />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="severity"
      studyId={studyId}
      label="Severity vs leniency"
      reference="Fig. 13"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gated items in either direction yet"
      tooltip={tooltip}
      hint="Hover a bar for its CI and counts; click a group for its reps."
      figure={draw}
    />
  );
});
