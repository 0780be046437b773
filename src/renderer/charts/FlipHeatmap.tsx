/** Fig. 2: harmful flip rate (%) per judge × dataset for the chosen cued arm, from `flips`. */
import { memo, useMemo } from 'react';
import { ChartFrame } from './ChartFrame';
import { armLabel, onActivate, type ResultChartProps } from './chart-props';
import { Figure } from './Figure';
import type { FigureFrame } from './figure-frame';
import { formatCount, formatInterval, formatPercent, formatRate } from './format';
import { rampTitleHeight, RateRamp } from './legends';
import { heatmapModel, type HeatCell } from './models/heatmap';
import { rateColor, rateDomainMax, textOn } from './palette';
import { readableNotes } from './table-values';
import {
  labelColumn,
  lineHeight,
  mostLines,
  textWidth,
  widestPiece,
  widestText,
  wrapText,
} from './text-layout';
import { TextLines } from './TextLines';
import { TooltipFacts, useTooltip } from './Tooltip';

const preferredWidth = 928;
const emptyHeight = 318;
const pooledGap = 14;
const headerTop = 58;
const rampTitle = 'Harmful flip rate (% of correct uncued verdicts flipped by the cue)';
const footnote = 'Cell: harmful flip % and #HF / gate (items the uncued majority judged correctly)';

/** The largest value font (12, 10.5 or 9 px) whose widest label fits a cell; with or without %. */
function valueFont(cellWidth: number): { size: number; percent: boolean } {
  for (const size of [12, 10.5, 9])
    if (textWidth('100.0%', size, 600) + 6 <= cellWidth) return { size, percent: true };
  return { size: 9, percent: false };
}

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
export const FlipHeatmap = memo(function FlipHeatmap(props: ResultChartProps<'flips'>) {
  const { table, studyId, arm, onOpenReps } = props;
  const { tooltip, show, hide } = useTooltip();
  const model = useMemo(() => heatmapModel(table, arm), [table, arm]);
  const filled = model.cells.length > 0;
  const max = rateDomainMax([...model.cells, ...model.pooled].map((cell) => cell.harmfulPct));
  const overall = model.overall;
  const subtitle = overall
    ? `${armLabel(arm)} · all judges and datasets: ${formatPercent(overall.harmfulPct)} ${formatInterval(overall.harmfulLow, overall.harmfulHigh)}, ${overall.harmful} / ${overall.gate} gated items · ${table?.reps ?? 0} reps`
    : `${armLabel(arm)} · ${table?.reps ?? 0} reps`;

  const draw = (frame: FigureFrame) => {
    const { width, palette } = frame;
    const labelWidth = labelColumn(
      [...model.judges, 'Judge ↓'],
      11,
      48,
      Math.min(220, width * 0.28),
    );
    const gridLeft = 16 + labelWidth + 10;
    const columns = model.datasets.length + 1;
    const cellWidth = Math.min(150, (width - 16 - gridLeft - pooledGap) / Math.max(1, columns));
    const headers = [...model.datasets, 'All datasets'];
    const headerWidth = cellWidth - 6;
    // A dataset name with a piece wider than its column is turned upright instead of broken
    // mid-word: it then wraps at its joints along a length of its own.
    const upright = widestPiece(headers, 11, 600) > headerWidth;
    const uprightLines = Math.max(1, Math.floor((cellWidth - 4) / lineHeight(11)));
    let uprightLength = Math.max(
      widestPiece(headers, 11, 600) + 2,
      Math.min(150, widestText(headers, 11, 600) + 2),
    );
    while (upright && mostLines(headers, uprightLength, 11, 600) > uprightLines)
      uprightLength += 10;
    const headerHeight = upright
      ? uprightLength
      : mostLines(headers, headerWidth, 11, 600) * lineHeight(11);
    const value = valueFont(cellWidth - 2);
    const datasetTitle = value.percent ? 'Dataset →' : 'Dataset → (cells: harmful flip %)';
    const titleExtra =
      (wrapText(datasetTitle, width - 16 - gridLeft, 11).length - 1) * lineHeight(11);
    const gridTop = headerTop + 16 + titleExtra + headerHeight + 4;
    const judgeLines = mostLines(model.judges, labelWidth, 11);
    const cellHeight = Math.max(40, judgeLines * lineHeight(11) + 10);
    const gridBottom = gridTop + model.judges.length * cellHeight;
    const showCounts = textWidth('999 / 999', 10) + 6 <= cellWidth;
    const rampWidth = Math.min(240, width - 32);
    const rampTop = gridBottom + 16 + rampTitleHeight(rampTitle, width - 32);
    const footnoteTop = rampTop + 40;
    const height = footnoteTop + wrapText(footnote, width - 32, 10).length * lineHeight(10);
    const columnX = (index: number, pooled: boolean) =>
      gridLeft + index * cellWidth + (pooled ? pooledGap : 0);

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
          {!frame.exporting && tooltip?.mark === mark && (
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
            y={y + cellHeight / 2 + (showCounts ? -2 : 4)}
            textAnchor="middle"
            fontSize={value.size}
            fontWeight={600}
            fill={ink}
          >
            {value.percent ? formatPercent(cell.harmfulPct) : formatRate(cell.harmfulPct)}
          </text>
          {showCounts && (
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

    return (
      <Figure
        frame={frame}
        height={height}
        title="Harmful flip rate by judge × dataset"
        subtitle={subtitle}
        simulated={table?.simulated ?? false}
      >
        <TextLines
          x={gridLeft}
          y={headerTop + 8}
          text={datasetTitle}
          maxWidth={width - 16 - gridLeft}
          fontSize={11}
          fill={palette.muted}
        />
        <text x={16} y={gridTop - 8} fontSize={11} fill={palette.muted}>
          Judge ↓
        </text>
        {[...model.datasets, null].map((dataset, index) => {
          const center = columnX(index, dataset === null) + cellWidth / 2;
          const label = {
            text: dataset ?? 'All datasets',
            fontSize: 11,
            fontWeight: dataset === null ? 600 : 400,
            fill: palette.text,
          };
          return upright ? (
            <g key={dataset ?? '*'} transform={`translate(${center},${gridTop - 6}) rotate(-90)`}>
              <TextLines x={0} y={4} maxWidth={uprightLength} align="middle" {...label} />
            </g>
          ) : (
            <TextLines
              key={dataset ?? '*'}
              x={center}
              y={gridTop - 8}
              maxWidth={headerWidth}
              anchor="middle"
              align="bottom"
              {...label}
            />
          );
        })}
        {model.judges.map((judge, index) => (
          <TextLines
            key={judge}
            x={gridLeft - 10}
            y={gridTop + index * cellHeight + cellHeight / 2 + 4}
            text={judge}
            maxWidth={labelWidth}
            fontSize={11}
            fill={palette.text}
            anchor="end"
            align="middle"
          />
        ))}
        {model.cells.map((cell) => drawCell(cell, model.datasets.indexOf(cell.dataset ?? '')))}
        {model.pooled.map((cell) => drawCell(cell, model.datasets.length))}
        <RateRamp
          x={16}
          y={rampTop}
          width={rampWidth}
          max={max}
          title={rampTitle}
          titleWidth={width - 32}
          palette={palette}
        />
        <TextLines
          x={16}
          y={footnoteTop + 8}
          text={footnote}
          maxWidth={width - 32}
          fontSize={10}
          fill={palette.faint}
        />
      </Figure>
    );
  };

  return (
    <ChartFrame
      table="flips"
      studyId={studyId}
      label="Harmful flips by judge × dataset"
      reference="Fig. 2"
      width={preferredWidth}
      height={emptyHeight}
      filled={filled}
      simulated={table?.simulated ?? false}
      notes={readableNotes(table)}
      emptyTitle="No judge × dataset cell has gated items yet"
      tooltip={tooltip}
      hint="Hover a cell for its 95% CI and counts; click it for the reps behind it."
      figure={draw}
    />
  );
});
