/**
 * LabApi handlers behind the command line's file commands (lab-api-commands.ts). What the CLI
 * once did itself against the store (classify, labels CSV, results import, Inspect logs, the
 * prompt of a suite file's item) happens here, so `cuelab --engine URL` gets the same answers.
 * Nothing here writes where a caller points: written files come back as text.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { LabEventMessage } from '../../../shared/lab-api';
import { repConditionSchema } from '../../../shared/rep-condition';
import { EngineError } from '../errors';
import { exportInspectLogs, exportLabelsCsv, importLabelsCsv, labelSheetCsv } from '../export';
import { previewPrompt } from '../judge';
import { classifyStudy, mechanismValidation, parseEnsembleConfig } from '../metajudge';
import { importResultsFile } from '../reports';
import { type Store } from '../store';
import { readStudyFlags } from '../store/faces/studies';
import { getSuiteItem, getSuiteTaxonomies } from '../store/faces/suites';
import { builtinSuiteIds, ensureSuite, loadSuiteFile } from '../suites';
import type { LabHandlers } from './handlers';
import { readNamedFile } from './read-file';

type CommandHandlers = Pick<
  LabHandlers,
  | 'classifyStudy'
  | 'exportLabels'
  | 'importLabels'
  | 'importResults'
  | 'exportInspect'
  | 'previewItemPrompt'
>;

/** What the command handlers need of the engine around them. */
export interface CommandHandlerDeps {
  store: Store;
  /** Pushes an event to every subscriber (the CLI follows classify's progress this way). */
  publish: (event: LabEventMessage) => void;
  /** A study's labels changed (the window's lists refresh). */
  onStudyChanged: (studyId: string) => void;
  /** Every key the engine holds: where ensemble voters find theirs. */
  keys: () => Readonly<Record<string, string | undefined>>;
}

/** The command-line file handlers. */
export function commandHandlers(deps: CommandHandlerDeps): CommandHandlers {
  const { store } = deps;
  return {
    classifyStudy: async ({ studyId, ensemble, votersFile, force }) => {
      const { simulated } = readStudyFlags(store, studyId);
      // A voters file is the user's input: the engine checks it like any other request.
      const config =
        ensemble === undefined
          ? undefined
          : parseEnsembleConfig(ensemble, votersFile ?? 'the voters file');
      const summary = await classifyStudy(store, studyId, {
        ...(config ? { ensemble: config } : {}),
        env: deps.keys(),
        force: force ?? false,
        onProgress: (done, total) =>
          deps.publish({ stream: 'classify.progress', data: { studyId, done, total } }),
      });
      deps.onStudyChanged(studyId);
      const validation = summary.truth ? mechanismValidation(store, studyId) : null;
      return {
        studyId,
        simulated,
        summary,
        validation: validation
          ? { accuracy: validation.accuracy, attributable: validation.attributable }
          : null,
      };
    },
    exportLabels: ({ studyId, all, sheet }) => {
      const text =
        sheet !== undefined
          ? labelSheetCsv(store, studyId, sheet)
          : exportLabelsCsv(store, studyId, { all: all ?? false });
      // CRLF rows after a header, the last one ended too.
      return { text, rows: text.split('\r\n').length - 2 };
    },
    importLabels: ({ path, fileName }) => {
      const name = fileName ?? path;
      return importLabelsCsv(store, readNamedFile(path, name), name);
    },
    importResults: ({ path, name, format }) => {
      const summary = importResultsFile(store, path, {
        ...(name === undefined ? {} : { name }),
        ...(format === undefined ? {} : { format }),
      });
      deps.onStudyChanged(summary.studyId);
      return { ...summary };
    },
    exportInspect: ({ studyId, format = 'json' }) => {
      // The exporter writes a folder; it writes a private one here, and the CLI the user's.
      const folder = mkdtempSync(join(tmpdir(), 'cuelab-inspect-'));
      try {
        const written = exportInspectLogs(store, studyId, folder, format);
        return {
          logs: written.map((log) => ({
            name: basename(log.file),
            ...(format === 'eval'
              ? { base64: readFileSync(log.file).toString('base64') }
              : { text: readFileSync(log.file, 'utf8') }),
            judge: log.judge,
            condition: log.condition,
            samples: log.samples,
          })),
        };
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    previewItemPrompt: ({ suiteId, suitePath, itemId, condition }) => {
      const chosen = condition ?? repConditionSchema.parse({});
      if (suitePath !== undefined) {
        const suite = loadSuiteFile(suitePath);
        const item = suite.items.find((candidate) => candidate.id === itemId);
        if (!item)
          throw new EngineError('not_found', `${basename(suitePath)} has no item "${itemId}".`);
        return previewPrompt(item, suite.taxonomies, chosen);
      }
      const id = suiteId as string;
      // A built-in suite is imported into the workspace on first use.
      if ((builtinSuiteIds as readonly string[]).includes(id)) ensureSuite(store, id);
      return previewPrompt(getSuiteItem(store, id, itemId), getSuiteTaxonomies(store, id), chosen);
    },
  };
}
