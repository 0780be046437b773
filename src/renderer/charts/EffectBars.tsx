/**
 * Fig. 4 (`ablation`) and Table 8 (`placement`): one horizontal bar per cue condition or per
 * placement, with its 95% CI and n, for the pooled judges or one judge.
 */
import { scaleLinear } from 'd3';
import { memo, useMemo, useState } from 'react';
import { CountHeading } from './bar-ends';
import { BarRow, barRowLayout } from './bar-row';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatCount, formatInterval, formatPercent } from './format';
import { effectAxisTitle, effectModel, type EffectBar } from './models/effect';
import { rateDomainMax } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';
import { JudgePicker } from './JudgePicker';
import { PercentAxis } from './percent-axis';
import { fittingTicks } from './text-layout';

const preferredWidth = 456;
const emptyHeight = 380;
const top = 64;

/** Which table and layout. */
interface EffectBarsProps extends ResultChartProps<'ablation' | 'placement'> {
  kind: 'ablation' | 'placement';
}

function barFacts(bar: EffectBar, metricLabel: string): [string, string][] {
  return [
    [metricLabel, formatPercent(bar.value)],
    ['95% CI', formatInterval(bar.low, bar.high)],
    ['n', formatCount(bar.n)],
    ['Excluded', formatCount(bar.excluded)],
    ['Cue', bar.cue || '—'],
    ['Placement', bar.placement || '—'],
    ['Mitigation', bar.mitigation || 'none'],
  ];
}

/** The ablation or placement card. */
export const EffectBars = memo(function EffectBars(props: EffectBarsProps) {
  const { table, studyId, onOpenReps, kind } = props;
  const { tooltip, show, hide } = useTooltip();
  const [chosenJudge, setChosenJudge] = useState<string | null>(null);
  const model = useMemo(
    () => effectModel(table, kind === 'ablation' ? 'condition' : 'placement', chosenJudge),
    [table, kind, chosenJudge],
  );
  const bars = model.bars;
  const filled = bars.length > 0;
  const lows = bars.map((bar) => bar.low ?? bar.value ?? 0);
  const min = Math.min(0, Math.floor(Math.min(0, ...lows) / 25) * 25);
  const max = rateDomainMax(bars.map((bar) => bar.high ?? bar.value));
  const metricLabel = model.metric === 'ceiling' ? '% of ceiling closed' : 'Harmful flip rate';
  const judgeLabel = model.judge === 'all' ? 'all judges pooled' : `judge ${model.judge ?? '—'}`;
  const isAblation = kind === 'ablation';
  const axisTitle = effectAxisTitle(model.metric);

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const { left, right, labelWidth, rowHeights, rowTops, bottom, height } = barRowLayout(
      width,
      bars,
      top,
      axisTitle,
    );
    const x = scaleLinear().domain([min, max]).range([left, right]);
    return (
      <Figure
        frame={frame}
        height={height}
        title={isAblation ? 'Effect per cue condition' : 'Effect per cue placement'}
        subtitle={`${judgeLabel} · all datasets · bars: ${metricLabel.toLowerCase()}, whiskers: 95% CI`}
        simulated={table?.simulated ?? false}
      >
        {x.ticks(fittingTicks(x)).map((tick) => (
          <line key={tick} x1={x(tick)} x2={x(tick)} y1={top} y2={bottom} stroke={palette.grid} />
        ))}
        <text x={left - 10} y={top - 6} textAnchor="end" fontSize={10.5} fill={palette.muted}>
          {isAblation ? 'Condition' : 'Placement'}
        </text>
        <CountHeading x={width - 8} y={top - 6} palette={palette} />
        {bars.map((bar, index) => {
          const rowHeight = rowHeights[index] ?? 26;
          const y = (rowTops[index] ?? top) + rowHeight / 2;
          const mark = `${bar.condition}\u0000${bar.label}`;
          const open = () =>
            onOpenReps({
              title: `${bar.condition} · ${model.judge === 'all' ? 'all judges' : (model.judge ?? '')}`,
              ...(model.judge && model.judge !== 'all' ? { judgeId: model.judge } : {}),
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
                  <TooltipFacts
                    title={`${bar.label}${bar.detail ? ` · ${bar.detail}` : ''}`}
                    facts={barFacts(bar, metricLabel)}
                  />,
                )
              }
              onMouseLeave={hide}
              onClick={open}
              onKeyDown={onActivate(open)}
            >
              <rect
                x={0}
                y={y - rowHeight / 2}
                width={width}
                height={rowHeight}
                fill={!frame.exporting && tooltip?.mark === mark ? palette.grid : 'transparent'}
                data-export-exclude=""
              />
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
      table={kind}
      studyId={studyId}
      label={isAblation ? 'Cue properties' : 'Cue placement'}
      reference={isAblation ? 'Fig. 4' : 'Table 8'}
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle={
        isAblation ? 'No cue condition could be measured yet' : 'No placed cue condition yet'
      }
      tooltip={tooltip}
      hint="Click a bar for its reps."
      controls={<JudgePicker judges={model.judges} value={model.judge} onChange={setChosenJudge} />}
      figure={draw}
    />
  );
});
