import type { StateCreator } from 'zustand';
import type { StudyProgress } from '../../../shared/study-progress';
import type { RepsQuery } from '../../charts/chart-props';
import {
  distinct,
  isTableNamed,
  liveResultTableNames,
  resultTableNames,
  type ArmSelection,
  type ReportTableData,
  type ReportTableOf,
  type ResultTableName,
  type ResultTables,
} from '../../charts/table-values';
import { labClientFor } from '../../lib/engine-client';
import type { AllSlices } from '../../store/types';

/** The side panel: the reps workbench, opened on the reps behind a clicked mark. */
export interface RepsPanelState {
  query: RepsQuery;
}

/**
 * Results of one study as the page shows them. Each table keeps its object identity until its
 * content changes, so a refetch while reps stream in re-renders only the figures that moved.
 */
export interface ResultsSlice {
  /** The study on screen (from `#/results/<id>`). */
  resultsStudyId: string | null;
  /** The report tables of that study, by name, as last fetched. */
  resultTables: ResultTables;
  /** Why the last fetch failed, if it did. */
  resultsError: string | null;
  /** The study's progress, updated at most once a second while it runs. */
  resultsProgress: StudyProgress | null;
  /** Cued arms (condition × dimension) the tables have, in table order. */
  resultsArms: ArmSelection[];
  /** The arm the single-arm figures show. */
  resultsArm: ArmSelection | null;
  repsPanel: RepsPanelState | null;
  /** Shows a study: clears what belonged to another one and fetches. */
  showResultsStudy: (studyId: string | null) => Promise<void>;
  /**
   * Fetches the tables again (keeps unchanged tables as they are): every one by default, only
   * those that move while reps land with `'live'`.
   */
  loadResultTables: (which?: 'live' | 'all') => Promise<void>;
  setResultsProgress: (progress: StudyProgress) => void;
  chooseResultsArm: (arm: ArmSelection) => void;
  openRepsPanel: (query: RepsQuery) => void;
  closeRepsPanel: () => void;
}

const armTables = ['flips', 'severity', 'effort', 'accuracy'] as const;

/** Puts `table` under `name` when it is that table; false when the engine answered another. */
function placeTable<N extends ResultTableName>(
  tables: { [K in ResultTableName]?: ReportTableOf<K> },
  name: N,
  table: ReportTableData,
): boolean {
  if (!isTableNamed(table, name)) return false;
  tables[name] = table;
  return true;
}

function armKey(arm: ArmSelection): string {
  return `${arm.condition}\u0000${arm.dimension}`;
}

/** Cued arms across the single-arm tables, in first-appearance order. */
export function armsOf(tables: ResultTables): ArmSelection[] {
  const keys = distinct(
    armTables.flatMap((name) => (tables[name]?.rows ?? []).map((row) => armKey(row))),
  );
  return keys.map((key) => {
    const [condition = '', dimension = ''] = key.split('\u0000');
    return { condition, dimension };
  });
}

export const createResultsSlice: StateCreator<AllSlices, [], [], ResultsSlice> = (set, get) => {
  // Last JSON of each table, to keep identities when nothing changed.
  let fetched = new Map<ResultTableName, string>();
  const client = () => {
    const address = get().address;
    return address ? labClientFor(address) : null;
  };
  return {
    resultsStudyId: null,
    resultTables: {},
    resultsError: null,
    resultsProgress: null,
    resultsArms: [],
    resultsArm: null,
    repsPanel: null,
    showResultsStudy: async (studyId) => {
      if (studyId !== get().resultsStudyId) {
        fetched = new Map();
        set({
          resultsStudyId: studyId,
          resultTables: {},
          resultsError: null,
          resultsProgress: null,
          resultsArms: [],
          resultsArm: null,
          repsPanel: null,
        });
      }
      const api = client();
      if (!studyId || !api) return;
      const [progress] = await Promise.all([
        api.studyProgress({ studyId }),
        get().loadResultTables(),
      ]);
      if (progress.ok && get().resultsStudyId === studyId) set({ resultsProgress: progress.value });
    },
    loadResultTables: async (which = 'all') => {
      const studyId = get().resultsStudyId;
      const api = client();
      if (!studyId || !api) return;
      const names: readonly ResultTableName[] =
        which === 'all' ? resultTableNames : liveResultTableNames;
      const answers = await Promise.all(names.map((table) => api.reportTable({ studyId, table })));
      if (get().resultsStudyId !== studyId) return;
      const tables: { [K in ResultTableName]?: ReportTableOf<K> } = {
        ...get().resultTables,
      };
      let changed = false;
      let error: string | null = null;
      answers.forEach((answer, index) => {
        const name = names[index] as ResultTableName;
        if (!answer.ok) {
          error ??= answer.error.message;
          return;
        }
        const text = JSON.stringify(answer.value);
        if (fetched.get(name) === text) return;
        if (!placeTable(tables, name, answer.value)) {
          error ??= `The engine answered table ${answer.value.name} for ${name}.`;
          return;
        }
        fetched.set(name, text);
        changed = true;
      });
      if (error !== get().resultsError) set({ resultsError: error });
      if (!changed) return;
      const arms = armsOf(tables);
      const previous = get().resultsArms;
      const sameArms =
        previous.length === arms.length &&
        previous.every((arm, index) => armKey(arm) === armKey(arms[index] as ArmSelection));
      const current = get().resultsArm;
      const keep = current && arms.some((arm) => armKey(arm) === armKey(current));
      set({
        resultTables: tables,
        ...(sameArms ? {} : { resultsArms: arms }),
        ...(keep ? {} : { resultsArm: arms[0] ?? null }),
      });
    },
    setResultsProgress: (progress) => {
      if (progress.studyId === get().resultsStudyId) set({ resultsProgress: progress });
    },
    chooseResultsArm: (arm) => {
      const found = get().resultsArms.find((entry) => armKey(entry) === armKey(arm));
      if (found) set({ resultsArm: found });
    },
    openRepsPanel: (query) => {
      if (get().resultsStudyId) set({ repsPanel: { query } });
    },
    closeRepsPanel: () => {
      set({ repsPanel: null });
    },
  };
};
