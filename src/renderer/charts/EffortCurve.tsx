/**
 * Fig. 3: harmful flip rate by turns taken on the cued arm, one line per judge, from `effort`.
 * Hidden bins (too few reps, App. L) are not plotted; the table under the plot lists every
 * bin's n with hidden ones marked, and each judge's Pearson r over the raw points. Whiskers are
 * the item-clustered intervals the table computes (reps of one item are not independent); a bin
 * resting on fewer than 15 items is a hollow dot, and the footnote says what hollow means.
 */
import { line, scaleLinear, scalePoint } from 'd3';
import { memo, useMemo } from 'react';
import { Axis, AxisTitle, GridLines } from './axes';
import { ChartFrame } from './ChartFrame';
import { armLabel, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatInterval, formatPercent, formatR, percentTick } from './format';
import { effortModel, type EffortBin } from './models/effort';
import { rateDomainMax } from './palette';
import { readableNotes } from './table-values';
import { fittingTicks, labelColumn, lineHeight, textWidth, wrapText } from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 456;
const emptyHeight = 380;
const left = 52;
const right = 16;
const top = 58;
const plotHeight = 176;
const maxRows = 5;
const tableSize = 10;

/** The effort card. */
export const EffortCurve = memo(function EffortCurve(props: ResultChartProps<'effort'>) {
  const { table, studyId, arm, onOpenReps } = props;
  const { tooltip, show, hide } = useTooltip();
  const model = useMemo(() => effortModel(table, arm), [table, arm]);
  const plotted = model.series.flatMap((series) => series.bins.filter((bin) => !bin.hidden));
  const filled = model.series.some((series) => series.n > 0);
  const max = rateDomainMax(plotted.map((bin) => bin.high ?? bin.pct));
  const totalN = model.series.reduce((sum, series) => sum + series.n, 0);
  const shownSeries = model.series.slice(0, maxRows);
  const footnote = `${
    model.series.length > maxRows
      ? `+${model.series.length - maxRows} more judges in the CSV · `
      : ''
  }n per bin = gated cued reps · * hidden bin: too few reps, not plotted · whiskers: 95% item-clustered${
    plotted.some((bin) => bin.fewItems)
      ? ' · hollow dot: bin on fewer than 15 items, its interval is rough'
      : ''
  }`;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const bottom = top + plotHeight;
    const x = scalePoint<string>()
      .domain(model.binLabels)
      .range([left + 8, width - right - 8])
      .padding(0.3);
    const y = scaleLinear().domain([0, max]).range([bottom, top]);
    const yTicks = fittingTicks(y, 28);
    const color = (index: number) =>
      palette.categorical[index % palette.categorical.length] ?? palette.text;
    const judgeWidth = labelColumn(
      shownSeries.map((series) => series.judge),
      tableSize,
      40,
      Math.min(200, width * 0.3),
    );
    // The bin columns need their widest label; when they have no room beside the judge column,
    // each judge's name takes a line of its own above its numbers (a stacked row).
    const binWidth = Math.max(...model.binLabels.map((label) => textWidth(label, tableSize))) + 8;
    const numbersWidth =
      8 +
      textWidth('Pearson r', tableSize) +
      8 +
      Math.max(textWidth('n', tableSize), textWidth('9999', tableSize)) +
      8 +
      model.binLabels.length * binWidth;
    const stacked = 34 + judgeWidth + numbersWidth > width - right;
    const nameWidth = stacked ? width - right - 34 : judgeWidth;
    const rColumn = (stacked ? 34 : 34 + judgeWidth + 8) + textWidth('Pearson r', tableSize);
    const nColumn = rColumn + 8 + Math.max(textWidth('n', tableSize), textWidth('9999', tableSize));
    const binStart = nColumn + 8;
    const binColumns = model.binLabels.length;
    const binX = (index: number) =>
      binStart + ((width - right - binStart) / Math.max(1, binColumns)) * (index + 0.5);
    const tableTop = bottom + 56;
    const nameLines = (judge: string) => wrapText(judge, nameWidth, tableSize).length;
    const rowHeights = shownSeries.map(
      (series) => (nameLines(series.judge) + (stacked ? 1 : 0)) * lineHeight(tableSize) + 2,
    );
    const rowBaselines = rowHeights.map((_, index) =>
      rowHeights.slice(0, index).reduce((sum, rowHeight) => sum + rowHeight, tableTop + 16),
    );
    const numbersY = (series: (typeof shownSeries)[number], rowY: number) =>
      stacked ? rowY + nameLines(series.judge) * lineHeight(tableSize) : rowY;
    const tableBottom = tableTop + 6 + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0);
    const footnoteTop = tableBottom + 14;
    const height =
      footnoteTop +
      (wrapText(footnote, width - 32, tableSize).length - 1) * lineHeight(tableSize) +
      6;
    const path = (bins: EffortBin[]) =>
      line<EffortBin>()
        .defined((bin) => !bin.hidden && bin.pct !== null)
        .x((bin) => x(bin.label) ?? 0)
        .y((bin) => y(bin.pct ?? 0))(bins) ?? '';
    return (
      <Figure
        frame={frame}
        height={height}
        title="Harmful flip rate by turns taken"
        subtitle={`${armLabel(arm)} · n = ${totalN} gold-gated cued reps`}
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
        <Axis orient="bottom" scale={x} offset={bottom} palette={palette} />
        <AxisTitle
          x={16}
          y={(top + bottom) / 2}
          text="Harmful flip rate (%)"
          palette={palette}
          vertical
        />
        <AxisTitle
          x={(left + width - right) / 2}
          y={bottom + 32}
          text="Turns taken on the cued arm (binned)"
          palette={palette}
        />
        {model.binLabels.map((label) => {
          const hidden = model.series.filter(
            (series) => series.bins.find((bin) => bin.label === label)?.hidden ?? true,
          ).length;
          if (hidden === 0) return null;
          return (
            <text
              key={label}
              x={x(label) ?? 0}
              y={top - 4}
              textAnchor="middle"
              fontSize={9.5}
              fontStyle="italic"
              fill={palette.faint}
            >
              {hidden === model.series.length ? 'hidden' : `${hidden} hidden`}
            </text>
          );
        })}
        {model.series.map((series, index) => {
          const offset = (index - (model.series.length - 1) / 2) * 4;
          return (
            <g key={series.judge}>
              <path
                d={path(series.bins)}
                fill="none"
                stroke={color(index)}
                strokeWidth={1.75}
                transform={`translate(${offset},0)`}
              />
              {series.bins
                .filter((bin) => !bin.hidden && bin.pct !== null)
                .map((bin) => {
                  const cx = (x(bin.label) ?? 0) + offset;
                  const mark = `${series.judge}\u0000${bin.label}`;
                  const open = () =>
                    onOpenReps({
                      title: `${series.judge} · ${bin.label} turns · ${arm?.condition ?? 'all'}`,
                      judgeId: series.judge,
                      ...(arm ? { conditionKeys: [arm.condition] } : {}),
                    });
                  return (
                    <g
                      key={bin.label}
                      role="button"
                      tabIndex={0}
                      data-testid="effort-point"
                      data-few-items={bin.fewItems ? 'true' : 'false'}
                      style={{ cursor: 'pointer' }}
                      aria-label={`${series.judge}, ${bin.label} turns: ${formatPercent(bin.pct)}`}
                      onMouseMove={(event) =>
                        show(
                          event,
                          mark,
                          <TooltipFacts
                            title={`${series.judge} · ${bin.label} turns`}
                            facts={[
                              ['Harmful flip rate', formatPercent(bin.pct)],
                              ['95% CI (item-clustered)', formatInterval(bin.low, bin.high)],
                              ['Harmful flips / reps', `${bin.harmful} / ${bin.n}`],
                              ['Items', `${bin.items}${bin.fewItems ? ' (few: under 15)' : ''}`],
                              ['Pearson r (all reps)', formatR(series.pearsonR)],
                            ]}
                          />,
                        )
                      }
                      onMouseLeave={hide}
                      onClick={open}
                    >
                      {bin.low !== null && bin.high !== null && (
                        <line
                          x1={cx}
                          x2={cx}
                          y1={y(bin.low)}
                          y2={y(bin.high)}
                          stroke={color(index)}
                          strokeOpacity={0.45}
                          strokeWidth={1.5}
                        />
                      )}
                      <circle
                        cx={cx}
                        cy={y(bin.pct ?? 0)}
                        r={!frame.exporting && tooltip?.mark === mark ? 5.5 : 3.5}
                        fill={bin.fewItems ? palette.background : color(index)}
                        stroke={bin.fewItems ? color(index) : palette.background}
                        strokeWidth={bin.fewItems ? 1.5 : 1}
                      />
                    </g>
                  );
                })}
            </g>
          );
        })}
        <g fontSize={10}>
          {!stacked && (
            <text x={16} y={tableTop} fill={palette.muted}>
              Judge
            </text>
          )}
          <text x={rColumn} y={tableTop} textAnchor="end" fill={palette.muted}>
            Pearson r
          </text>
          <text x={nColumn} y={tableTop} textAnchor="end" fill={palette.muted}>
            n
          </text>
          {model.binLabels.map((label, index) => (
            <text key={label} x={binX(index)} y={tableTop} textAnchor="middle" fill={palette.muted}>
              {label}
            </text>
          ))}
          <line
            x1={16}
            x2={width - right}
            y1={tableTop + 4}
            y2={tableTop + 4}
            stroke={palette.grid}
          />
          {shownSeries.map((series, index) => {
            const rowY = rowBaselines[index] ?? tableTop;
            return (
              <g key={series.judge}>
                <line
                  x1={16}
                  x2={28}
                  y1={rowY - 4}
                  y2={rowY - 4}
                  stroke={color(index)}
                  strokeWidth={2}
                />
                <circle cx={22} cy={rowY - 4} r={2.5} fill={color(index)} />
                <TextLines
                  x={34}
                  y={rowY}
                  text={series.judge}
                  maxWidth={nameWidth}
                  fontSize={tableSize}
                  fill={palette.text}
                />
                <text x={rColumn} y={numbersY(series, rowY)} textAnchor="end" fill={palette.text}>
                  {formatR(series.pearsonR)}
                </text>
                <text x={nColumn} y={numbersY(series, rowY)} textAnchor="end" fill={palette.text}>
                  {series.n}
                </text>
                {model.binLabels.map((label, binIndex) => {
                  const bin = series.bins.find((entry) => entry.label === label);
                  return (
                    <text
                      key={label}
                      x={binX(binIndex)}
                      y={numbersY(series, rowY)}
                      textAnchor="middle"
                      fill={bin?.hidden ? palette.faint : palette.text}
                      fontStyle={bin?.hidden ? 'italic' : undefined}
                    >
                      {bin ? `${bin.n}${bin.hidden ? '*' : ''}` : '—'}
                    </text>
                  );
                })}
              </g>
            );
          })}
          <TextLines
            x={16}
            y={footnoteTop}
            text={footnote}
            maxWidth={width - 32}
            fontSize={tableSize}
            fill={palette.faint}
          />
        </g>
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="effort"
      studyId={studyId}
      label="Effort curve"
      reference="Fig. 3"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gated cued rep with a turn count yet"
      tooltip={tooltip}
      hint="Hover a point for its CI; click it for the judge’s reps."
      figure={draw}
    />
  );
});
