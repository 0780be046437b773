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
    { table: 'accuracy', wide: true, Chart: AccuracyTable },
    { table: 'graded', wide: false, Chart: GradedBars },
    { table: 'mechanisms', wide: true, Chart: HarmfulMechanisms },
    { table: 'mechanisms-helpful', wide: true, Chart: HelpfulMechanisms },
  ];

function ConnectedFigure({ table, studyId }: { table: ResultTableName; studyId: string }) {
  const data = useLab((state) => state.resultTables[table]);
  const arm = useLab((state) => state.resultsArm);
  const openRepsPanel = useLab((state) => state.openRepsPanel);
  const entry = figures.find((figure) => figure.table === table);
  if (!entry) return null;
  const { Chart } = entry;
  return <Chart table={data} studyId={studyId} arm={arm} onOpenReps={openRepsPanel} />;
}

/** Every figure of one study. */
export function ResultCharts({ studyId }: { studyId: string }) {
  return (
    <div className="results-grid">
      {figures.map((figure) => (
        <div key={figure.table} className={figure.wide ? 'results-cell-wide' : 'results-cell'}>
          <ConnectedFigure table={figure.table} studyId={studyId} />
        </div>
      ))}
    </div>
  );
}
