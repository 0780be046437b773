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
import { RegressionForest } from '../../charts/RegressionForest';
import { ReportCardBars } from '../../charts/ReportCardBars';
import { resultTableNames, type ResultTableName } from '../../charts/table-values';
import { useLab } from '../../store';

function AblationBars(props: ResultChartProps<'ablation'>) {
  return <EffectBars {...props} kind="ablation" />;
}

function PlacementBars(props: ResultChartProps<'placement'>) {
  return <EffectBars {...props} kind="placement" />;
}

function HarmfulMechanisms(props: ResultChartProps<'mechanisms'>) {
  return <MechanismBars {...props} kind="harmful" />;
}

function HelpfulMechanisms(props: ResultChartProps<'mechanisms-helpful'>) {
  return <MechanismBars {...props} kind="helpful" />;
}

interface Figure<N extends ResultTableName> {
  readonly wide: boolean;
  readonly Chart: ComponentType<ResultChartProps<N>>;
}

/**
 * Each table's figures, drawn from that table's typed rows, in page order; `wide` figures span
 * both columns. The mitigations table has two: Table 1 and, beside it, the same rows as harm
 * removed against help kept.
 */
const figures: { readonly [N in ResultTableName]: readonly Figure<N>[] } = {
  flips: [{ wide: true, Chart: FlipHeatmap }],
  severity: [{ wide: true, Chart: DirectionBars }],
  effort: [{ wide: false, Chart: EffortCurve }],
  ablation: [{ wide: false, Chart: AblationBars }],
  placement: [{ wide: false, Chart: PlacementBars }],
  mitigations: [
    { wide: false, Chart: MitigationChart },
    { wide: false, Chart: FrontierChart },
  ],
  regression: [{ wide: true, Chart: RegressionForest }],
  accuracy: [{ wide: true, Chart: AccuracyTable }],
  graded: [{ wide: false, Chart: GradedBars }],
  mechanisms: [{ wide: true, Chart: HarmfulMechanisms }],
  'mechanisms-helpful': [{ wide: true, Chart: HelpfulMechanisms }],
  card: [{ wide: true, Chart: ReportCardBars }],
};

function ConnectedFigure<N extends ResultTableName>({
  table,
  index,
  studyId,
}: {
  table: N;
  index: number;
  studyId: string;
}) {
  const data = useLab((state) => state.resultTables[table]);
  const arm = useLab((state) => state.resultsArm);
  const openRepsPanel = useLab((state) => state.openRepsPanel);
  const figure = figures[table][index];
  if (!figure) return null;
  const { Chart } = figure;
  return <Chart table={data} studyId={studyId} arm={arm} onOpenReps={openRepsPanel} />;
}

/** Every figure of one study. */
export function ResultCharts({ studyId }: { studyId: string }) {
  return (
    <div className="results-grid">
      {resultTableNames.flatMap((table) =>
        figures[table].map((figure, index) => (
          <div
            key={`${table}-${index}`}
            className={figure.wide ? 'results-cell-wide' : 'results-cell'}
          >
            <ConnectedFigure table={table} index={index} studyId={studyId} />
          </div>
        )),
      )}
    </div>
  );
}
