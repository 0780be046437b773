/**
 * The mechanism commands (§3.3, App. F, N, P): classify a study's flipped reps, move a study
 * between workspaces as a bundle, and move human labels in and out as CSV.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createEngine, type Engine } from '../engine/engine';
import { exportBundle } from '../engine/export/bundle-export';
import {
  LabelsImportError,
  exportLabelsCsv,
  importLabelsFile,
  labelSheetCsv,
} from '../engine/export/labels-csv';
import { classifyStudy, type ClassifySummary } from '../engine/metajudge/classify-study';
import { loadEnsembleFile } from '../engine/metajudge/ensemble/voters';
import { mechanismValidation } from '../engine/metajudge/validation';
import { resolveStudyId } from '../engine/runner/load-study';
import { workspaceForProcess } from '../engine/workspace';
import { uploadBundle } from '../../shared/lab-client';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { openLab, unwrap } from './connection';

function withEngine<T>(workspace: string | undefined, work: (engine: Engine) => T): T {
  const engine = createEngine(workspaceForProcess(workspace));
  try {
    return work(engine);
  } finally {
    engine.close();
  }
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length ? entries.map(([label, n]) => `${label} ${n}`).join(', ') : 'none';
}

function printSummary(io: CliIo, summary: ClassifySummary, simulated: boolean): void {
  const mark = simulated ? ' [SIMULATED: synthetic-judge data]' : '';
  io.out(
    `${summary.flips} flipped reps (${summary.harmful} harmful, ${summary.helpful} helpful)${mark}.`,
  );
  io.out(`Trajectory diff: ${counts(summary.diff)}.`);
  if (summary.gold?.cases) {
    const { asked, skipped, pass, fail, undecided } = summary.gold;
    io.out(
      `Gold (meta-judge consensus, App. G): ${asked} item×dimension asked, ${skipped} already set; ` +
        `pass ${pass}, fail ${fail}, undecided ${undecided}.`,
    );
  }
  if (summary.truth) io.out(`True mechanism recorded for ${summary.truth} synthetic reps.`);
  if (summary.ensemble) {
    const { asked, skipped, labels, invalidVotes } = summary.ensemble;
    io.out(
      `Ensemble: ${asked} asked, ${skipped} already labelled (use --force to ask again); ${counts(labels)}.`,
    );
    if (invalidVotes)
      io.out(`warning: ${invalidVotes} voter answers could not be read; stored as invalid.`);
  }
}

/** `cuelab classify`: label every flipped rep of a study. */
export const classifyCommand: CliCommand = {
  name: 'classify',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary:
    'Label why each flipped rep flipped: trajectory diff, and the LLM ensemble with --voters',
  usage: `Usage: cuelab classify STUDY [--voters FILE] [--diff-only] [--force] [--workspace DIR]

Finds every cued rep whose verdict differs from its item's uncued majority (harmful: the
majority was right; helpful: it was wrong) and labels each one individually (App. H):
  diff      the deterministic trajectory diff against the rep's uncued twin (always)
  truth     the synthetic judge's own record, for simulated reps
  ensemble  with --voters FILE: every voter's label and the majority vote (App. N)
  gold      with --voters FILE, first: for a binary dimension other than task success, the
            voters' consensus on each item's uncued evidence is its gold (App. G)
Harmful mechanisms: over_trust, hallucination, under_investigation (§3.3).
Helpful mechanisms: better_investigation, lucky_deference, evidence_reweighting (App. F).

--voters FILE   JSON or YAML: { voters: [{ id, provider, model, baseUrl?, apiKeyEnv?,
                temperature?, maxTokens?, thinkStepByStep? }, ...], tieBreaker?: ID, concurrency? }
                Keys come from the environment (apiKeyEnv names the variable).
--diff-only     skip the ensemble even when --voters is given
--force         ask the ensemble again for reps it already labelled
STUDY is an id, an id prefix, a study name, or "latest".`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        voters: { type: 'string' },
        'diff-only': { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one STUDY');
    const ensemble =
      values.voters && !values['diff-only'] ? loadEnsembleFile(values.voters) : undefined;
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      const studyId = resolveStudyId(engine.store, positionals[0] as string);
      const simulated =
        (engine.store.db
          .prepare('SELECT simulated FROM studies WHERE id = ?')
          .pluck()
          .get(studyId) as number) === 1;
      const summary = await classifyStudy(engine.store, studyId, {
        ...(ensemble ? { ensemble } : {}),
        force: values.force,
        onProgress: (done, total) => {
          if (done === total || done % 10 === 0) io.err(`ensemble: ${done}/${total}`);
        },
      });
      io.out(`Study ${studyId}:`);
      printSummary(io, summary, simulated);
      if (summary.truth) {
        const validation = mechanismValidation(engine.store, studyId);
        const accuracy =
          validation.accuracy === null ? 'n/a' : `${(validation.accuracy * 100).toFixed(1)}%`;
        io.out(
          `Diff vs true mechanism: ${accuracy} over ${validation.attributable} cue-caused flips (report table mechanism-validation).`,
        );
      }
      if (!ensemble) io.out('No LLM ensemble asked; give --voters FILE to run it.');
      return exitCodes.ok;
    } finally {
      engine.close();
    }
  },
};

/** `cuelab export-bundle`: one file that another workspace opens offline. */
export const exportBundleCommand: CliCommand = {
  name: 'export-bundle',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary:
    'Write a study (spec, items, prompts, transcripts, labels) to one file to open elsewhere',
  usage: `Usage: cuelab export-bundle STUDY [--out FILE] [--workspace DIR]

Writes one gzipped JSON file with everything the study is: its spec, the suite items it judged
with their taxonomies, every prompt (system, tools, messages), every model and tool call,
verdicts, jobs and recorded provider responses, majorities and mechanism labels. Another
workspace opens it with "cuelab open-bundle" and replays it with no network and no Docker.
API keys never enter: values of secret-looking environment variables are redacted.
Default FILE: cuelab-study-<first 8 characters of the id>.json.gz in the current folder.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, out: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one STUDY');
    return Promise.resolve(
      withEngine(values.workspace, (engine) => {
        const studyId = resolveStudyId(engine.store, positionals[0] as string);
        const file = values.out ?? `cuelab-study-${studyId.slice(0, 8)}.json.gz`;
        const summary = exportBundle(engine.store, studyId, file);
        io.out(
          `Wrote ${file} (${summary.bytes} bytes): study ${studyId}, ${summary.reps} reps, ${summary.labels} labels.`,
        );
        for (const name of summary.redacted)
          io.out(`warning: the value of ${name} appeared in the study and was redacted.`);
        return exitCodes.ok;
      }),
    );
  },
};

/** `cuelab open-bundle`: a bundle becomes a study of this workspace. */
export const openBundleCommand: CliCommand = {
  name: 'open-bundle',
  summary: 'Open a study bundle in this workspace (offline)',
  usage: `Usage: cuelab open-bundle FILE [--replace] [--workspace DIR]

Adds the bundle's study, its suite items and everything recorded about it to this workspace,
in one transaction. Nothing is run or fetched; a study that was still running opens paused.
A study with the same id is refused unless --replace is given (then it is replaced).
With --engine URL --token T the file is streamed to that running engine (any size).`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, replace: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one FILE');
    const file = resolve(positionals[0] as string);
    const replace = values.replace ? { replace: true } : {};
    const session = openLab(context, values.workspace);
    try {
      // Here the engine reads the file itself; a running engine gets it streamed.
      const summary = unwrap(
        context?.remote
          ? await uploadBundle(
              context.remote,
              Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
              replace,
            )
          : await session.api.openBundle({ path: file, ...replace }),
      );
      io.out(
        `${summary.replaced ? 'Replaced' : 'Opened'} study ${summary.studyId} "${summary.name}": ` +
          `${summary.reps} reps, ${summary.labels} labels` +
          `${summary.suiteCreated ? ', suite created' : summary.itemsAdded ? `, ${summary.itemsAdded} suite items added` : ''}.`,
      );
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};

/** `cuelab import-labels`: human labels from CSV. */
export const importLabelsCommand: CliCommand = {
  name: 'import-labels',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary: 'Import human mechanism labels from CSV (rep_id, annotator, label, sub_mode, rationale)',
  usage: `Usage: cuelab import-labels FILE [--workspace DIR]

Reads one label per row: rep_id, annotator, label, and optionally sub_mode and rationale (other
columns, such as those export-labels writes, are ignored). label is a mechanism of the flip's
kind: over_trust, hallucination or under_investigation for a harmful flip; better_investigation,
lucky_deference or evidence_reweighting for a helpful one. sub_mode (deference or
evidence_reweighting) goes only with over_trust. Rows with no label are skipped. A file with any
bad row is rejected whole, every bad row listed with its line number; nothing is stored.
A label replaces the same annotator's earlier label of that rep.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one FILE');
    return Promise.resolve(
      withEngine(values.workspace, (engine) => {
        try {
          const summary = importLabelsFile(engine.store, positionals[0] as string);
          io.out(
            `Imported ${summary.imported} labels from ${summary.annotators.join(', ') || 'no annotator'}${summary.skipped ? ` (${summary.skipped} unlabelled rows skipped)` : ''}.`,
          );
          return exitCodes.ok;
        } catch (error) {
          if (!(error instanceof LabelsImportError)) throw error;
          io.err(`cuelab import-labels: ${error.message}`);
          for (const problem of error.problems) io.err(`  ${problem}`);
          return exitCodes.failed;
        }
      }),
    );
  },
};

/** `cuelab export-labels`: human labels (or all) as CSV, or a blank sheet for an annotator. */
export const exportLabelsCommand: CliCommand = {
  name: 'export-labels',
  // Not yet on LabApi: it opens the workspace here (issue 13 follow-up).
  local: true,
  summary: 'Write a study’s mechanism labels as CSV, or a blind labelling sheet for an annotator',
  usage: `Usage: cuelab export-labels STUDY [--out FILE] [--all] [--sheet ANNOTATOR] [--workspace DIR]

Writes CSV with the columns rep_id, annotator, label, sub_mode, rationale, source, kind,
item_id, judge_id, dataset: the human labels by default (import-labels reads them back),
every source's labels with --all (diff, voter:*, ensemble, truth, human:*).
--sheet ANNOTATOR writes a blank sheet instead: the flipped reps ANNOTATOR has not labelled, in
an order of their own and with no other label shown (App. P: blind), ready to fill in and import.
Without --out the CSV goes to standard output.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        out: { type: 'string' },
        all: { type: 'boolean', default: false },
        sheet: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one STUDY');
    if (values.sheet !== undefined && values.all)
      throw new UsageError('give --sheet or --all, not both');
    return Promise.resolve(
      withEngine(values.workspace, (engine) => {
        const studyId = resolveStudyId(engine.store, positionals[0] as string);
        const text =
          values.sheet !== undefined
            ? labelSheetCsv(engine.store, studyId, values.sheet)
            : exportLabelsCsv(engine.store, studyId, { all: values.all });
        const rows = text.split('\r\n').length - 2;
        if (values.out) {
          writeFileSync(values.out, text);
          io.out(`Wrote ${rows} rows to ${values.out}.`);
        } else io.out(text.slice(0, -1));
        return exitCodes.ok;
      }),
    );
  },
};
