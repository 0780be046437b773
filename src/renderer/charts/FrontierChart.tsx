/**
 * The harm/help frontier (CueLab's figure for §4's open problem): each mitigation's harmful-flip
 * reduction (x, percentage points) against the share of the cue's helpful flips it keeps
 * (y, % of before), both with 95% intervals (Newcombe's paired interval, from `mitigations`).
 * A mitigation that only trades harm for help falls toward the bottom right; §4's goal is the
 * top right. In a synthetic study each point says what stands behind it.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo, useState } from 'react';
import { Axis, AxisTitle } from './axes';
import { ChartFrame } from './ChartFrame';
import type { ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatInterval } from './format';
import { JudgePicker } from './JudgePicker';
import { legendHeight, SwatchLegend, type LegendItem } from './legends';
import { frontierLabel, frontierModel, type FrontierPoint } from './models/frontier';
import type { ChartPalette } from './palette';
import { readableNotes } from './table-values';
import { lineHeight, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 456;
const emptyHeight = 380;
const left = 56;
const right = 18;
const top = 64;
const plotHeight = 250;

function pointColor(point: FrontierPoint, palette: ChartPalette): string {
  if (point.basis === 'not-modelled') return palette.faint;
  if (point.basis === 'hypothesis') return palette.leniency;
  return palette.severity;
}

function legendItems(palette: ChartPalette, points: readonly FrontierPoint[]): LegendItem[] {
  const simulated = points.some((point) => point.basis !== null);
  if (!simulated) return [{ label: 'mitigation (95% CI)', color: palette.severity, shape: 'dot' }];
  const items: LegendItem[] = [
    { label: 'paper mitigation, simulated from Table 1', color: palette.severity, shape: 'dot' },
  ];
  if (points.some((point) => point.basis === 'hypothesis'))
    items.push({ label: 'CueLab’s own, a hypothesis', color: palette.leniency, shape: 'dot' });
  if (points.some((point) => point.basis === 'not-modelled'))
    items.push({ label: 'effect not modelled', color: palette.faint, shape: 'dot' });
  return items;
}

const pp = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} pp`);
const pct = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)}%`);

/** The frontier card. */
export const FrontierChart = memo(function FrontierChart(props: ResultChartProps<'mitigations'>) {
  const { table, studyId } = props;
  const { tooltip, show, hide } = useTooltip();
  const [chosenJudge, setChosenJudge] = useState<string | null>(null);
  const model = useMemo(() => frontierModel(table, chosenJudge), [table, chosenJudge]);
  const points = model.points;
  const filled = points.length > 0;
  const judgeLabel =
    model.judge === 'all' ? 'all judges and datasets pooled' : `judge ${model.judge ?? '—'}`;
  const gate = Math.max(0, ...points.map((point) => point.gate));
  const wrong = Math.max(0, ...points.map((point) => point.wrong));

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const xs = points.flatMap((point) => [
      point.reduction,
      point.reductionLow,
      point.reductionHigh,
    ]);
    const ys = points.flatMap((point) => [point.retained, point.retainedLow, point.retainedHigh]);
    const finite = (values: (number | null)[]) =>
      values.filter((value): value is number => value !== null && Number.isFinite(value));
    const xMin = Math.min(0, ...finite(xs));
    const xMax = Math.max(10, ...finite(xs));
    const yMax = Math.min(200, Math.max(100, ...finite(ys)));
    const yMin = Math.max(-100, Math.min(0, ...finite(ys)));
    const x = scaleLinear()
      .domain([xMin, xMax])
      .nice()
      .range([left, width - right]);
    const y = scaleLinear()
      .domain([yMin, yMax])
      .nice()
      .range([top + plotHeight, top]);
    const bottom = top + plotHeight;
    const items = legendItems(palette, points);
    const xTitle = 'Harmful-flip reduction, before − after (percentage points)';
    const xTitleLines = wrapText(xTitle, width - left - right, 11).length;
    const legendTop = bottom + 50 + (xTitleLines - 1) * lineHeight(11);
    const height = legendTop + legendHeight(items, width - 28) - 4;
    const clampY = (value: number) => y(Math.max(y.domain()[0] ?? 0, Math.min(yMax, value)));
    return (
      <Figure
        frame={frame}
        height={height}
        title="Harm/help frontier of the mitigations"
        subtitle={`${judgeLabel} · x: harmful flips removed (pp, n = ${gate} gated items) · y: helpful flips kept (% of before, n = ${wrong} wrong items) · 95% CI`}
        simulated={table?.simulated ?? false}
      >
        {y.ticks(5).map((tick) => (
          <line
            key={`y${tick}`}
            x1={left}
            x2={width - right}
            y1={y(tick)}
            y2={y(tick)}
            stroke={palette.grid}
          />
        ))}
        {x.ticks(5).map((tick) => (
          <line
            key={`x${tick}`}
            x1={x(tick)}
            x2={x(tick)}
            y1={top}
            y2={bottom}
            stroke={palette.grid}
          />
        ))}
        <line
          x1={x(0)}
          x2={x(0)}
          y1={top}
          y2={bottom}
          stroke={palette.axis}
          strokeDasharray="3 3"
        />
        <line
          x1={left}
          x2={width - right}
          y1={y(100)}
          y2={y(100)}
          stroke={palette.axis}
          strokeDasharray="3 3"
        />
        <TextLines
          x={width - right - 4}
          y={top + 12}
          text="§4’s goal: harm removed, help kept ↗"
          maxWidth={width / 2}
          fontSize={9.5}
          fill={palette.muted}
          anchor="end"
        />
        <Axis
          orient="bottom"
          scale={x}
          offset={bottom}
          palette={palette}
          ticks={5}
          tickFormat={(v) => `${Number(v)}`}
        />
        <Axis
          orient="left"
          scale={y}
          offset={left}
          palette={palette}
          ticks={5}
          tickFormat={(v) => `${Number(v)}%`}
        />
        <AxisTitle
          x={(left + width - right) / 2}
          y={bottom + 34}
          text={xTitle}
          palette={palette}
          maxWidth={width - left - right}
        />
        <AxisTitle
          x={14}
          y={(top + bottom) / 2}
          text="Helpful flips kept (% of before)"
          palette={palette}
          vertical
        />
        {points.map((point) => {
          const color = pointColor(point, palette);
          const cx = x(point.reduction);
          const cy = point.retained === null ? bottom : clampY(point.retained);
          const mark = `${point.mitigation}\u0000${point.after}`;
          const label = frontierLabel(point);
          const onRight = cx < (left + width - right) / 2;
          return (
            <g
              key={mark}
              data-frontier-point={point.mitigation}
              onMouseMove={(event) =>
                show(
                  event,
                  mark,
                  <TooltipFacts
                    title={label}
                    facts={[
                      ['Arm', point.after],
                      [
                        'Harmful flips removed',
                        `${pp(point.reduction)} ${formatInterval(point.reductionLow, point.reductionHigh)}`,
                      ],
                      [
                        'Helpful flips kept',
                        `${pct(point.retained)} ${formatInterval(point.retainedLow, point.retainedHigh)}`,
                      ],
                      ['Gated / wrong items (before)', `${point.gate} / ${point.wrong}`],
                    ]}
                  />,
                )
              }
              onMouseLeave={hide}
            >
              {point.reductionLow !== null && point.reductionHigh !== null && (
                <line
                  x1={x(point.reductionLow)}
                  x2={x(point.reductionHigh)}
                  y1={cy}
                  y2={cy}
                  stroke={color}
                  strokeWidth={1.5}
                />
              )}
              {point.retainedLow !== null && point.retainedHigh !== null && (
                <line
                  x1={cx}
                  x2={cx}
                  y1={clampY(point.retainedLow)}
                  y2={clampY(point.retainedHigh)}
                  stroke={color}
                  strokeWidth={1.5}
                />
              )}
              <circle
                cx={cx}
                cy={cy}
                r={!frame.exporting && tooltip?.mark === mark ? 6 : 4.5}
                fill={point.retained === null ? 'none' : color}
                stroke={color}
                strokeWidth={1.5}
              />
              <TextLines
                x={onRight ? cx + 8 : cx - 8}
                y={cy - 6}
                text={label}
                maxWidth={Math.max(80, width / 3)}
                fontSize={9.5}
                fill={palette.text}
                anchor={onRight ? 'start' : 'end'}
              />
            </g>
          );
        })}
        <SwatchLegend x={16} y={legendTop} items={items} palette={palette} maxWidth={width - 28} />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="mitigations"
      figureId="frontier"
      studyId={studyId}
      label="Harm/help frontier"
      reference="CueLab (§4)"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No mitigated condition to place on the frontier yet"
      tooltip={tooltip}
      hint="Hover a point for its intervals and n."
      controls={<JudgePicker judges={model.judges} value={model.judge} onChange={setChosenJudge} />}
      figure={draw}
    />
  );
});
