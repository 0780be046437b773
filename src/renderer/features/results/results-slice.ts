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
   * those that move while reps land with `'live'`. With `'stale-ok'` (a study opening) a table
   * drawn before the study's last reps landed is shown at once, marked `outdated`, each table
   * as it comes; the current one replaces it when its drawing ends (results-live.ts).
   */
  loadResultTables: (which?: 'live' | 'all', current?: 'wait' | 'stale-ok') => Promise<void>;
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
  /** Shows `tables`, keeping the arms and the chosen arm when they did not change. */
  const showTables = (tables: ResultTables) => {
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
        get().loadResultTables('all', 'stale-ok'),
      ]);
      if (progress.ok && get().resultsStudyId === studyId) set({ resultsProgress: progress.value });
    },
    loadResultTables: async (which = 'all', current = 'wait') => {
      const studyId = get().resultsStudyId;
      const api = client();
      if (!studyId || !api) return;
      const names: readonly ResultTableName[] =
        which === 'all' ? resultTableNames : liveResultTableNames;
      const ask = (table: ResultTableName) =>
        api.reportTable({ studyId, table, ...(current === 'stale-ok' ? { current } : {}) });
      let error: string | null = null;
      /** Puts the answer into `tables`; true when it changed what is shown. */
      const place = (
        tables: { [K in ResultTableName]?: ReportTableOf<K> },
        name: ResultTableName,
        answer: Awaited<ReturnType<typeof ask>>,
      ): boolean => {
        if (!answer.ok) {
          error ??= answer.error.message;
          return false;
        }
        const held = tables[name];
        // A table shown current is never put back to an older drawing answered late.
        if (answer.value.outdated && held && !held.outdated) return false;
        const text = JSON.stringify(answer.value);
        if (fetched.get(name) === text) return false;
        if (!placeTable(tables, name, answer.value)) {
          error ??= `The engine answered table ${answer.value.name} for ${name}.`;
          return false;
        }
        fetched.set(name, text);
        return true;
      };
      if (current === 'stale-ok') {
        // Each table as it comes: an out-of-date one is there at once, the card waits.
        await Promise.all(
          names.map(async (name) => {
            const answer = await ask(name);
            if (get().resultsStudyId !== studyId) return;
            const tables = { ...get().resultTables };
            if (place(tables, name, answer)) showTables(tables);
          }),
        );
      } else {
        const answers = await Promise.all(names.map(ask));
        if (get().resultsStudyId !== studyId) return;
        const tables = { ...get().resultTables };
        let changed = false;
        answers.forEach((answer, index) => {
          if (place(tables, names[index] as ResultTableName, answer)) changed = true;
        });
        if (changed) showTables(tables);
      }
      if (get().resultsStudyId === studyId && error !== get().resultsError)
        set({ resultsError: error });
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
