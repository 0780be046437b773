/** Fig. 2: harmful flip rate (%) per judge × dataset for the chosen cued arm, from `flips`. */
import { memo, useMemo, useRef } from 'react';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import { clip, formatCount, formatInterval, formatPercent } from './format';
import { RateRamp } from './legends';
import { heatmapModel, type HeatCell } from './models/heatmap';
import { rateColor, rateDomainMax, textOn, useChartPalette } from './palette';
import { readableNotes } from './table-values';
import { TooltipFacts, useTooltip } from './Tooltip';

const width = 928;
const height = 318;
const gridLeft = 160;
const gridTop = 92;
const gridBottom = height - 66;
const pooledGap = 14;

function cellFacts(cell: HeatCell): [string, string][] {
  return [
    ['Harmful flip rate', formatPercent(cell.harmfulPct)],
    ['95% CI (Wilson)', formatInterval(cell.harmfulLow, cell.harmfulHigh)],
    ['Harmful flips / gate', `${cell.harmful} / ${cell.gate}`],
    ['Items paired (N)', formatCount(cell.n)],
    ['Helpful flip rate', `${formatPercent(cell.helpfulPct)} (${cell.helpful} / ${cell.wrong})`],
    ['Items excluded', formatCount(cell.excluded)],
  ];
}

/** The heatmap card. */
export const FlipHeatmap = memo(function FlipHeatmap(props: ResultChartProps) {
  const { table, studyId, arm, onOpenReps } = props;
  const palette = useChartPalette();
  const svgRef = useRef<SVGSVGElement>(null);
  const { tooltip, show, hide } = useTooltip();
  const model = useMemo(() => heatmapModel(table, arm), [table, arm]);
  const filled = model.cells.length > 0;

  const columns = model.datasets.length + 1;
  const cellWidth = Math.min(140, (width - 24 - gridLeft - pooledGap) / Math.max(1, columns));
  const cellHeight = Math.min(48, (gridBottom - gridTop) / Math.max(1, model.judges.length));
  const max = rateDomainMax([...model.cells, ...model.pooled].map((cell) => cell.harmfulPct));
  const columnX = (index: number, pooled: boolean) =>
    gridLeft + index * cellWidth + (pooled ? pooledGap : 0);
  const overall = model.overall;

  const drawCell = (cell: HeatCell, column: number) => {
    const row = model.judges.indexOf(cell.judge);
    if (row < 0) return null;
    const pooled = cell.dataset === null;
    const x = columnX(column, pooled);
    const y = gridTop + row * cellHeight;
    const fill = cell.harmfulPct === null ? palette.empty : rateColor(cell.harmfulPct, max);
    const ink = cell.harmfulPct === null ? palette.faint : textOn(fill);
    const datasetLabel = cell.dataset ?? 'all datasets (pooled)';
    const mark = `${cell.judge}\u0000${cell.dataset ?? '*'}`;
    const open = () =>
      onOpenReps({
        title: `${cell.judge} · ${datasetLabel} · ${arm?.condition ?? 'all'}`,
        judgeId: cell.judge,
        ...(cell.dataset === null ? {} : { dataset: cell.dataset }),
        ...(arm ? { conditionKeys: [arm.condition, 'uncued'] } : {}),
      });
    return (
      <g
        key={mark}
        data-testid="heat-cell"
        data-judge={cell.judge}
        data-dataset={cell.dataset ?? 'all'}
        role="button"
        tabIndex={0}
        aria-label={`${cell.judge} on ${datasetLabel}: ${formatPercent(cell.harmfulPct)} harmful flips, ${cell.harmful} of ${cell.gate}`}
        style={{ cursor: 'pointer' }}
        onMouseMove={(event) =>
          show(
            event,
            mark,
            <TooltipFacts title={`${cell.judge} · ${datasetLabel}`} facts={cellFacts(cell)} />,
          )
        }
        onMouseLeave={hide}
        onClick={open}
        onKeyDown={onActivate(open)}
      >
        <rect
          x={x + 1}
          y={y + 1}
          width={cellWidth - 2}
          height={cellHeight - 2}
          rx={2}
          fill={fill}
        />
        {tooltip?.mark === mark && (
          <rect
            data-export-exclude=""
            x={x + 1}
            y={y + 1}
            width={cellWidth - 2}
            height={cellHeight - 2}
            rx={2}
            fill="none"
            stroke={palette.highlight}
            strokeWidth={2}
          />
        )}
        <text
          x={x + cellWidth / 2}
          y={y + cellHeight / 2 + (cellHeight >= 30 ? -2 : 4)}
          textAnchor="middle"
          fontSize={12}
          fontWeight={600}
          fill={ink}
        >
          {formatPercent(cell.harmfulPct)}
        </text>
        {cellHeight >= 30 && (
          <text
            x={x + cellWidth / 2}
            y={y + cellHeight / 2 + 12}
            textAnchor="middle"
            fontSize={10}
            fill={ink}
            opacity={0.85}
          >
            {`${cell.harmful} / ${cell.gate}`}
          </text>
        )}
      </g>
    );
  };

  const subtitle = overall
    ? `${armLabel(arm)} · all judges and datasets: ${formatPercent(overall.harmfulPct)} ${formatInterval(overall.harmfulLow, overall.harmfulHigh)}, ${overall.harmful} / ${overall.gate} gated items · ${table?.reps ?? 0} reps`
    : `${armLabel(arm)} · ${table?.reps ?? 0} reps`;

  return (
    <ChartFrame
      table="flips"
      studyId={studyId}
      label="Harmful flips by judge × dataset"
      reference="Fig. 2"
      width={width}
      height={height}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No judge × dataset cell has gated items yet"
      svgRef={svgRef}
      tooltip={tooltip}
      hint="Hover a cell for its 95% CI and counts; click it for the reps behind it."
    >
      <Figure
        svgRef={svgRef}
        width={width}
        height={height}
        title="Harmful flip rate by judge × dataset"
        subtitle={subtitle}
        simulated={table?.simulated ?? false}
        palette={palette}
      >
        <text x={gridLeft} y={66} fontSize={11} fill={palette.muted}>
          Dataset →
        </text>
        <text x={16} y={gridTop - 8} fontSize={11} fill={palette.muted}>
          Judge ↓
        </text>
        {model.datasets.map((dataset, index) => (
          <text
            key={dataset}
            x={columnX(index, false) + cellWidth / 2}
            y={gridTop - 8}
            textAnchor="middle"
            fontSize={11}
            fill={palette.text}
          >
            <title>{dataset}</title>
            {clip(dataset, Math.floor(cellWidth / 6.2))}
          </text>
        ))}
        <text
          x={columnX(model.datasets.length, true) + cellWidth / 2}
          y={gridTop - 8}
          textAnchor="middle"
          fontSize={11}
          fontWeight={600}
          fill={palette.text}
        >
          All datasets
        </text>
        {model.judges.map((judge, index) => (
          <text
            key={judge}
            x={gridLeft - 10}
            y={gridTop + index * cellHeight + cellHeight / 2 + 4}
            textAnchor="end"
            fontSize={11}
            fill={palette.text}
          >
            <title>{judge}</title>
            {clip(judge, 22)}
          </text>
        ))}
        {model.cells.map((cell) => drawCell(cell, model.datasets.indexOf(cell.dataset ?? '')))}
        {model.pooled.map((cell) => drawCell(cell, model.datasets.length))}
        <RateRamp
          x={gridLeft}
          y={height - 36}
          width={240}
          max={max}
          title="Harmful flip rate (% of correct uncued verdicts flipped by the cue)"
          palette={palette}
        />
        <text x={width - 16} y={height - 12} textAnchor="end" fontSize={10} fill={palette.faint}>
          Cell: harmful flip % and #HF / gate (items the uncued majority judged correctly)
        </text>
      </Figure>
    </ChartFrame>
  );
});
