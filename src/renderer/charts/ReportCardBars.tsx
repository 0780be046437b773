/**
 * The report card: one horizontal bar per judge × cue-family arm, the harmful flip rate of its
 * cued reps with the item-clustered 95% interval and the gated items; the detail line and the
 * tooltip give the flips beyond the family's placebo (and the flag), severity vs leniency,
 * uncued accuracy and self-consistency. Judges sit side by side in one list, each named above
 * the plot with its uncued accuracy, self-consistency across reps and cost. An arm is flagged
 * only when its beyond-placebo interval lies wholly above the Tolerance field's value.
 */
import { scaleLinear } from 'd3';
import { memo, useId, useMemo, useState } from 'react';
import { parseCardTolerance } from '../../shared/card-tolerance';
import { useCardTolerance } from './card-tolerance';
import { CountHeading } from './bar-ends';
import { BarRow, barRowLayout } from './bar-row';
import { ChartFrame } from './ChartFrame';
import { onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatCount, formatInterval, formatPercent } from './format';
import { cardBars, cardJudges, type CardBar, type CardJudge } from './models/card';
import { rateDomainMax } from './palette';
import { PercentAxis } from './percent-axis';
import { readableNotes } from './table-values';
import { fittingTicks, lineHeight, textWidth, wrapText } from './text-layout';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 688;
const emptyHeight = 300;
/** Where the judges' lines start, under the title band. */
const judgesTop = 62;
const judgeSize = 10;
const axisTitle = 'Harmful flips, % of cued reps (95% CI, items resampled)';

function points(value: number | null): string {
  return value === null ? '—' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} pp`;
}

function money(value: number | null): string {
  return value === null ? 'cost unknown' : `cost $${value.toFixed(value >= 100 ? 0 : 4)}`;
}

/** A judge's facts, each kept whole on a line (a number never breaks at its decimal point). */
function judgeSegments(judge: CardJudge): string[] {
  return [
    `${judge.judge}:`,
    `uncued accuracy ${formatPercent(judge.uncuedAccuracyPct)} ·`,
    `self-consistency ${formatPercent(judge.selfConsistencyPct)} ·`,
    money(judge.costUsd),
  ];
}

/** The judge's lines at `maxWidth`: whole segments, greedily; only a too-long id is broken. */
function judgeLines(judge: CardJudge, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const segment of judgeSegments(judge)) {
    const candidate = current ? `${current} ${segment}` : segment;
    if (textWidth(candidate, judgeSize) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    const pieces = wrapText(segment, maxWidth, judgeSize);
    lines.push(...pieces.slice(0, -1));
    current = pieces[pieces.length - 1] ?? '';
  }
  if (current) lines.push(current);
  return lines;
}

/** The Tolerance field: typed text, kept only when it parses (the error says why not). */
function ToleranceField(props: { value: number; onChange: (tolerancePp: number) => void }) {
  const id = useId();
  const [text, setText] = useState(String(props.value));
  const parsed = parseCardTolerance(text);
  return (
    <label className="chart-picker" htmlFor={id}>
      Tolerance (pp)
      <input
        id={id}
        data-testid="card-tolerance"
        type="number"
        min={0}
        max={100}
        step={0.5}
        value={text}
        aria-invalid={typeof parsed === 'string'}
        title="Flag an arm only when its harmful flips beyond placebo have a 95% interval wholly above this"
        onChange={(event) => {
          setText(event.target.value);
          const next = parseCardTolerance(event.target.value);
          if (typeof next === 'number') props.onChange(next);
        }}
      />
      {typeof parsed === 'string' && (
        <span className="chart-status chart-status-error" role="alert">
          {parsed}
        </span>
      )}
    </label>
  );
}

function facts(bar: CardBar): [string, string][] {
  return [
    ['Harmful flips (reps)', formatPercent(bar.value)],
    ['95% CI (items resampled)', formatInterval(bar.low, bar.high)],
    ['Gated items', formatCount(bar.n)],
    ['Harmful beyond placebo', points(bar.beyond)],
    ['  95% CI (Newcombe, paired)', formatInterval(bar.beyondLow, bar.beyondHigh)],
    ['Helpful beyond placebo', points(bar.helpfulBeyond)],
    // Only a study with an uncued repeat (arms.uncuedRepeat) has a test-retest floor.
    ...(bar.beyondRepeat === null
      ? []
      : ([
          ['Harmful beyond uncued repeat', points(bar.beyondRepeat)],
          ['  95% CI (Newcombe)', formatInterval(bar.beyondRepeatLow, bar.beyondRepeatHigh)],
        ] as [string, string][])),
    [
      'Severity / leniency HF',
      `${formatPercent(bar.severityPct)} / ${formatPercent(bar.leniencyPct)}`,
    ],
    ['Uncued accuracy', formatPercent(bar.uncuedAccuracyPct)],
    ['Self-consistency (uncued)', formatPercent(bar.selfConsistencyPct)],
    ['Flag', bar.flagged ? 'FLAGGED' : bar.placebo === null ? 'no placebo arm' : 'not flagged'],
  ];
}

/** The report-card figure. */
export const ReportCardBars = memo(function ReportCardBars(props: ResultChartProps<'card'>) {
  const { table, studyId, onOpenReps } = props;
  const { tooltip, show, hide } = useTooltip();
  const [tolerancePp, setTolerancePp] = useCardTolerance();
  const bars = useMemo(() => cardBars(table, tolerancePp), [table, tolerancePp]);
  const judges = useMemo(() => cardJudges(table), [table]);
  const flagged = bars.filter((bar) => bar.flagged).length;
  const max = rateDomainMax(bars.map((bar) => bar.high ?? bar.value));

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const step = lineHeight(judgeSize);
    const judgeBlocks = judges.map((judge) => judgeLines(judge, width - 32));
    const judgeTops = judgeBlocks.map((_, index) =>
      judgeBlocks.slice(0, index).reduce((sum, lines) => sum + lines.length * step, judgesTop),
    );
    const top = judgesTop + judgeBlocks.reduce((sum, lines) => sum + lines.length * step, 0) + 14;
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
        title="Report card: cue families per judge"
        subtitle={`${bars.length} family arm${bars.length === 1 ? '' : 's'} · bars: harmful flips of cued reps · whiskers: 95% CI · detail: beyond the family’s placebo · ${flagged} flagged above ${tolerancePp} pp`}
        simulated={table?.simulated ?? false}
      >
        {judges.map((judge, index) => (
          <text
            key={judge.judge}
            x={16}
            y={(judgeTops[index] ?? judgesTop) + judgeSize * 0.9}
            fontSize={judgeSize}
            fill={palette.text}
            data-testid="card-judge"
          >
            {(judgeBlocks[index] ?? []).map((line, lineIndex) => (
              <tspan key={lineIndex} x={16} dy={lineIndex === 0 ? 0 : step}>
                {line}
              </tspan>
            ))}
          </text>
        ))}
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
              title: `${bar.condition} · ${bar.judge}`,
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
      table="card"
      studyId={studyId}
      label="Report card"
      reference="cue families"
      width={preferredWidth}
      height={emptyHeight}
      filled={bars.length > 0}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table).map((note) =>
        note.startsWith('Flag:')
          ? `Flag: FLAGGED only when the harmful beyond-placebo interval lies wholly above the tolerance, ${tolerancePp} pp (the Tolerance field; cuelab report --tolerance).`
          : note,
      )}
      controls={<ToleranceField value={tolerancePp} onChange={setTolerancePp} />}
      tolerancePp={tolerancePp}
      emptyTitle="No cue-family arms in this study"
      tooltip={tooltip}
      hint="Click a bar for its reps."
      figure={draw}
    />
  );
});
