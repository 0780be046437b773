/**
 * The mechanism commands (§3.3, App. F, N, P): classify a study's flipped reps, move a study
 * between workspaces as a bundle, and move human labels in and out as CSV.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { LabResponse } from '../../shared/lab-api';
import { uploadBundle } from '../../shared/lab-client';
import { CommandError, exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { openLab, printRejectedFile, unwrap, type LabSession } from './connection';
import { ensemblePresetNames, votersFilePath } from './ensemble-presets';
import { fileForEngine, writeOutput } from './files';
import { countOf } from './words';

type ClassifySummary = LabResponse<'classifyStudy'>['summary'];

/** The study a person typed, resolved by the engine. */
async function studyOf(session: LabSession, reference: string): Promise<string> {
  return unwrap(await session.api.resolveStudy({ reference })).studyId;
}

/**
 * A voters file's content: read here (it is on this machine), parsed as JSON or YAML; the
 * engine checks it against the ensemble schema and names every problem.
 */
function readVotersFile(argument: string): unknown {
  const path = votersFilePath(argument);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CommandError(
      `Cannot read the voters file ${path}: ${(error as Error).message} (shipped ensembles: ` +
        `${ensemblePresetNames().join(', ') || 'none'}).`,
    );
  }
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new CommandError(`${path} is neither JSON nor YAML: ${(error as Error).message}.`);
  }
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length ? entries.map(([label, n]) => `${label} ${n}`).join(', ') : 'none';
}

function printSummary(io: CliIo, summary: ClassifySummary, simulated: boolean): void {
  const mark = simulated ? ' [SIMULATED: synthetic-judge data]' : '';
  io.out(
    `${countOf(summary.flips, 'flipped rep')} (${summary.harmful} harmful, ${summary.helpful} helpful)${mark}.`,
  );
  io.out(`Trajectory diff: ${counts(summary.diff)}.`);
  if (summary.gold?.cases) {
    const { asked, skipped, pass, fail, undecided } = summary.gold;
    io.out(
      `Gold (meta-judge consensus, App. G): ${asked} item×dimension asked, ${skipped} already set; ` +
        `pass ${pass}, fail ${fail}, undecided ${undecided}.`,
    );
  }
  if (summary.truth)
    io.out(`True mechanism recorded for ${countOf(summary.truth, 'synthetic rep')}.`);
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
                or a shipped ensemble by name: paper-meta-judge (App. N: Opus-4.7, DeepSeek-R1,
                Llama-4-Maverick, Opus-4.7 breaking a split). Without tieBreaker the first
                voter listed decides a split.
                Keys come from the environment (apiKeyEnv names the variable).
--diff-only     skip the ensemble even when --voters is given
--force         ask the ensemble again for reps it already labelled
STUDY is an id, an id prefix, a study name, or "latest".`,
  async run(args, io, context) {
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
      values.voters && !values['diff-only'] ? readVotersFile(values.voters) : undefined;
    const session = openLab(context, values.workspace);
    try {
      const studyId = await studyOf(session, positionals[0] as string);
      // The ensemble's progress comes as events, from this process or a running engine.
      const stop = await session.listen((event) => {
        if (event.stream !== 'classify.progress' || event.data.studyId !== studyId) return;
        const { done, total } = event.data;
        if (done === total || done % 10 === 0) io.err(`ensemble: ${done}/${total}`);
      });
      let answer: LabResponse<'classifyStudy'>;
      try {
        answer = unwrap(
          await session.api.classifyStudy({
            studyId,
            ...(ensemble === undefined ? {} : { ensemble, votersFile: values.voters }),
            force: values.force,
          }),
        );
      } finally {
        stop();
      }
      io.out(`Study ${studyId}:`);
      printSummary(io, answer.summary, answer.simulated);
      if (answer.validation) {
        const { accuracy: share, attributable } = answer.validation;
        const accuracy = share === null ? 'n/a' : `${(share * 100).toFixed(1)}%`;
        io.out(
          `Diff vs true mechanism: ${accuracy} over ${attributable} cue-caused flips (report table mechanism-validation).`,
        );
      }
      if (ensemble === undefined) io.out('No LLM ensemble asked; give --voters FILE to run it.');
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};

/** `cuelab export-bundle`: one file that another workspace opens offline. */
export const exportBundleCommand: CliCommand = {
  name: 'export-bundle',
  summary:
    'Write a study (spec, items, prompts, transcripts, labels) to one file to open elsewhere',
  usage: `Usage: cuelab export-bundle STUDY [--out FILE] [--workspace DIR]

Writes one gzipped JSON file with everything the study is: its spec, the suite items it judged
with their taxonomies, every prompt (system, tools, messages), every model and tool call,
verdicts, jobs and recorded provider responses, majorities and mechanism labels. Another
workspace opens it with "cuelab open-bundle" and replays it with no network and no Docker.
API keys never enter: values of secret-looking environment variables are redacted.
A study too large for one bundle (more than open-bundle opens: 2,000,000 rows, or 256 MiB
once decompressed) is refused with its size, and nothing is written: export it with
"cuelab export-inspect" instead.
Default FILE: cuelab-study-<first 8 characters of the id>.json.gz in the current folder.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, out: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one STUDY');
    const session = openLab(context, values.workspace);
    try {
      const studyId = await studyOf(session, positionals[0] as string);
      // The engine builds and redacts the bundle; this machine writes the file it was told.
      const bundle = unwrap(await session.api.exportBundle({ studyId }));
      const file = values.out ?? `cuelab-study-${studyId.slice(0, 8)}.json.gz`;
      writeOutput(file, Buffer.from(bundle.base64, 'base64'));
      io.out(
        `Wrote ${file} (${bundle.bytes} bytes): study ${studyId}, ${countOf(bundle.reps, 'rep')}, ${countOf(bundle.labels, 'label')}.`,
      );
      for (const name of bundle.redacted)
        io.out(`warning: the value of ${name} appeared in the study and was redacted.`);
      return exitCodes.ok;
    } finally {
      await session.close();
    }
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
          `${countOf(summary.reps, 'rep')}, ${countOf(summary.labels, 'label')}` +
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
  summary: 'Import human mechanism labels from CSV (rep_id, annotator, label, sub_mode, rationale)',
  usage: `Usage: cuelab import-labels FILE [--workspace DIR]

Reads one label per row: rep_id, annotator, label, and optionally sub_mode and rationale (other
columns, such as those export-labels writes, are ignored). label is a mechanism of the flip's
kind: over_trust, hallucination or under_investigation for a harmful flip; better_investigation,
lucky_deference or evidence_reweighting for a helpful one. sub_mode (deference or
evidence_reweighting) goes only with over_trust. Rows with no label are skipped. A file with any
bad row is rejected whole, every bad row listed with its line number; nothing is stored.
A label replaces the same annotator's earlier label of that rep.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one FILE');
    const file = positionals[0] as string;
    const session = openLab(context, values.workspace);
    try {
      const path = await fileForEngine(session, file);
      const summary = unwrap(await session.api.importLabels({ path, fileName: file }));
      io.out(
        `Imported ${summary.imported} labels from ${summary.annotators.join(', ') || 'no annotator'}${summary.skipped ? ` (${summary.skipped} unlabelled rows skipped)` : ''}.`,
      );
      return exitCodes.ok;
    } catch (error) {
      return printRejectedFile('import-labels', error, io);
    } finally {
      await session.close();
    }
  },
};

/** `cuelab export-labels`: human labels (or all) as CSV, or a blank sheet for an annotator. */
export const exportLabelsCommand: CliCommand = {
  name: 'export-labels',
  summary: 'Write a study’s mechanism labels as CSV, or a blind labelling sheet for an annotator',
  usage: `Usage: cuelab export-labels STUDY [--out FILE] [--all] [--sheet ANNOTATOR] [--workspace DIR]

Writes CSV with the columns rep_id, annotator, label, sub_mode, rationale, source, kind,
item_id, judge_id, dataset: the human labels by default (import-labels reads them back),
every source's labels with --all (diff, voter:*, ensemble, truth, human:*).
--sheet ANNOTATOR writes a blank sheet instead: the flipped reps ANNOTATOR has not labelled, in
an order of their own and with no other label shown (App. P: blind), ready to fill in and import.
Without --out the CSV goes to standard output.`,
  async run(args, io, context) {
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
    const session = openLab(context, values.workspace);
    try {
      const studyId = await studyOf(session, positionals[0] as string);
      const { text, rows } = unwrap(
        await session.api.exportLabels({
          studyId,
          ...(values.sheet === undefined ? { all: values.all } : { sheet: values.sheet }),
        }),
      );
      if (values.out) {
        writeOutput(values.out, text);
        io.out(`Wrote ${rows} rows to ${values.out}.`);
      } else io.out(text.slice(0, -1));
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};
