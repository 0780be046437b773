/**
 * Fig. 3: harmful flip rate by turns taken on the cued arm, one line per judge, from `effort`.
 * Hidden bins (too few reps, App. L) are not plotted; the table under the plot lists every
 * bin's n with hidden ones marked, and each judge's Pearson r over the raw points.
 */
import { line, scaleLinear, scalePoint } from 'd3';
import { memo, useMemo, useRef } from 'react';
import { Axis, AxisTitle, GridLines } from './axes';
import { ChartFrame } from './ChartFrame';
import { armLabel, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatInterval, formatPercent, formatR, percentTick } from './format';
import { effortModel, type EffortBin } from './models/effort';
import { rateDomainMax, useChartPalette } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 456;
const height = 380;
const left = 52;
const right = 16;
const top = 58;
const bottom = height - 146;
const tableTop = bottom + 52;
const rowHeight = 15;
const maxRows = 5;

/** The effort card. */
export const EffortCurve = memo(function EffortCurve(props: ResultChartProps) {
  const { table, studyId, arm, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const model = useMemo(() => effortModel(table, arm), [table, arm]);
  const plotted = model.series.flatMap((series) => series.bins.filter((bin) => !bin.hidden));
  const filled = model.series.some((series) => series.n > 0);
  const max = rateDomainMax(plotted.map((bin) => bin.high ?? bin.pct));
  const x = useMemo(
    () =>
      scalePoint<string>()
        .domain(model.binLabels)
        .range([left + 8, width - right - 8])
        .padding(0.3),
    [model.binLabels],
  );
  const y = useMemo(() => scaleLinear().domain([0, max]).range([bottom, top]), [max]);
  const color = (index: number) =>
    palette.categorical[index % palette.categorical.length] ?? palette.text;
  const binColumns = model.binLabels.length;
  const binX = (index: number) =>
    232 + ((width - right - 232) / Math.max(1, binColumns)) * (index + 0.5);
  const totalN = model.series.reduce((sum, series) => sum + series.n, 0);

  const path = (bins: EffortBin[]) =>
    line<EffortBin>()
      .defined((bin) => !bin.hidden && bin.pct !== null)
      .x((bin) => x(bin.label) ?? 0)
      .y((bin) => y(bin.pct ?? 0))(bins) ?? '';

  return (
    <ChartFrame
      table="effort"
      studyId={studyId}
      label="Effort curve"
      reference="Fig. 3"
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No gated cued rep with a turn count yet"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Hover a point for its CI; click it for the judge’s reps."
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="Harmful flip rate by turns taken"
        subtitle={`${armLabel(arm)} · n = ${totalN} gold-gated cued reps`}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        <GridLines ticks={y.ticks(4)} y={y} x1={left} x2={width - right} palette={palette} />
        <Axis
          orient="left"
          scale={y}
          offset={left}
          palette={palette}
          ticks={4}
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
                              ['95% CI (Wilson)', formatInterval(bin.low, bin.high)],
                              ['Harmful flips / reps', `${bin.harmful} / ${bin.n}`],
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
                        r={tooltip?.mark === mark ? 5.5 : 3.5}
                        fill={color(index)}
                        stroke={palette.background}
                        strokeWidth={1}
                      />
                    </g>
                  );
                })}
            </g>
          );
        })}
        <g fontSize={10}>
          <text x={16} y={tableTop} fill={palette.muted}>
            Judge
          </text>
          <text x={168} y={tableTop} textAnchor="end" fill={palette.muted}>
            Pearson r
          </text>
          <text x={212} y={tableTop} textAnchor="end" fill={palette.muted}>
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
          {model.series.slice(0, maxRows).map((series, index) => {
            const rowY = tableTop + 4 + rowHeight * (index + 1) - 3;
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
                <text x={34} y={rowY} fill={palette.text}>
                  <title>{series.judge}</title>
                  {clip(series.judge, 17)}
                </text>
                <text x={168} y={rowY} textAnchor="end" fill={palette.text}>
                  {formatR(series.pearsonR)}
                </text>
                <text x={212} y={rowY} textAnchor="end" fill={palette.text}>
                  {series.n}
                </text>
                {model.binLabels.map((label, binIndex) => {
                  const bin = series.bins.find((entry) => entry.label === label);
                  return (
                    <text
                      key={label}
                      x={binX(binIndex)}
                      y={rowY}
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
          <text x={16} y={height - 8} fill={palette.faint}>
            {model.series.length > maxRows
              ? `+${model.series.length - maxRows} more judges in the CSV · `
              : ''}
            n per bin = gated cued reps · * hidden bin: too few reps, not plotted
          </text>
        </g>
      </Figure>
    </ChartFrame>
  );
});
