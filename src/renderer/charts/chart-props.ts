/** What every results figure takes from the page. */
import type { ArmSelection, ReportTableOf, ResultTableName } from './table-values';

/** The reps behind a mark, as the side panel asks the engine for them. */
export interface RepsQuery {
  /** Heading of the panel, e.g. "opus · aj-postgres · system". */
  title: string;
  judgeId?: string;
  dataset?: string;
  /** Conditions to list (the cued arm and its uncued control); all when absent. */
  conditionKeys?: string[];
}

/** Props of a results figure drawn from table N (or from any of several tables). */
export interface ResultChartProps<N extends ResultTableName = ResultTableName> {
  /** The table, or undefined before the first answer. */
  table: ReportTableOf<N> | undefined;
  studyId: string;
  /** The cued arm the page's picker chose (figures of one arm use it). */
  arm: ArmSelection | null;
  /** Lists the reps behind a clicked mark. */
  onOpenReps: (query: RepsQuery) => void;
}

/** Keyboard activation for SVG marks that act as buttons. */
export function onActivate(action: () => void) {
  return (event: { key: string; preventDefault: () => void }) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      action();
    }
  };
}

/** "condition · dimension" as subtitles print an arm. */
export function armLabel(arm: ArmSelection | null): string {
  return arm ? `condition ${arm.condition} · ${arm.dimension}` : 'all conditions';
}
