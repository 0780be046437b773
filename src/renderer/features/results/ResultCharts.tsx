/**
 * The figures of the study on screen. Each figure selects only its own table, so a refetch
 * re-renders just the figures whose numbers changed; the page around them stays put.
 */
import type { ComponentType } from 'react';
import { AccuracyTable } from '../../charts/AccuracyTable';
import type { ResultChartProps } from '../../charts/chart-props';
import { DirectionBars } from '../../charts/DirectionBars';
import { EffectBars } from '../../charts/EffectBars';
import { EffortCurve } from '../../charts/EffortCurve';
import { FlipHeatmap } from '../../charts/FlipHeatmap';
import { FrontierChart } from '../../charts/FrontierChart';
import { GradedBars } from '../../charts/GradedBars';
import { MechanismBars } from '../../charts/MechanismBars';
import { MitigationChart } from '../../charts/MitigationChart';
import type { ResultTableName } from '../../charts/table-values';
import { useLab } from '../../store';

function AblationBars(props: ResultChartProps) {
  return <EffectBars {...props} kind="ablation" />;
}

function PlacementBars(props: ResultChartProps) {
  return <EffectBars {...props} kind="placement" />;
}

function HarmfulMechanisms(props: ResultChartProps) {
  return <MechanismBars {...props} kind="harmful" />;
}

function HelpfulMechanisms(props: ResultChartProps) {
  return <MechanismBars {...props} kind="helpful" />;
}

/** Each table's figure, in page order; `wide` figures span both columns. */
const figures: { table: ResultTableName; wide: boolean; Chart: ComponentType<ResultChartProps> }[] =
  [
    { table: 'flips', wide: true, Chart: FlipHeatmap },
    { table: 'severity', wide: true, Chart: DirectionBars },
    { table: 'effort', wide: false, Chart: EffortCurve },
    { table: 'ablation', wide: false, Chart: AblationBars },
    { table: 'placement', wide: false, Chart: PlacementBars },
    { table: 'mitigations', wide: false, Chart: MitigationChart },
    // Beside Table 1: the same rows as harm removed against help kept.
    { table: 'mitigations', wide: false, Chart: FrontierChart },
    { table: 'accuracy', wide: true, Chart: AccuracyTable },
    { table: 'graded', wide: false, Chart: GradedBars },
    { table: 'mechanisms', wide: true, Chart: HarmfulMechanisms },
    { table: 'mechanisms-helpful', wide: true, Chart: HelpfulMechanisms },
  ];

function ConnectedFigure({
  table,
  studyId,
  Chart,
}: {
  table: ResultTableName;
  studyId: string;
  Chart: ComponentType<ResultChartProps>;
}) {
  const data = useLab((state) => state.resultTables[table]);
  const arm = useLab((state) => state.resultsArm);
  const openRepsPanel = useLab((state) => state.openRepsPanel);
  return <Chart table={data} studyId={studyId} arm={arm} onOpenReps={openRepsPanel} />;
}

/** Every figure of one study. */
export function ResultCharts({ studyId }: { studyId: string }) {
  return (
    <div className="results-grid">
      {figures.map((figure, index) => (
        // Two figures read the mitigations table; the list is fixed, so its index is stable.
        <div
          key={`${figure.table}-${index}`}
          className={figure.wide ? 'results-cell-wide' : 'results-cell'}
        >
          <ConnectedFigure table={figure.table} studyId={studyId} Chart={figure.Chart} />
        </div>
      ))}
    </div>
  );
}
