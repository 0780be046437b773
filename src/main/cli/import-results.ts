import { parseArgs } from 'node:util';
import { knownResultColumns, requiredResultColumns } from '../../shared/results-columns';
import { exitCodes, UsageError, type CliCommand } from './command';
import { openLab, printRejectedFile, unwrap } from './connection';
import { fileForEngine } from './files';
import { countOf } from './words';

/** `cuelab import-results`: per-rep verdict records from another harness become a study. */
export const importResultsCommand: CliCommand = {
  name: 'import-results',
  summary: 'Import per-rep verdicts from any harness (CSV or JSONL) as a study to report on',
  usage: `Usage: cuelab import-results FILE [--name NAME] [--format csv|jsonl] [--workspace DIR]

Reads one record per judge rep, as CSV (a header row first) or JSONL (one object per line),
and stores them as a study that "cuelab report" and the window show like a native one.

Columns: item_id, dataset, judge, condition, cue_direction, rep, verdict, score, gold,
dimension, turns. Required: ${requiredResultColumns.join(', ')}.
  condition       "uncued" for the control arm; any name for a cued arm
  cue_direction   severity | leniency (empty on the control arm)
  verdict         pass | fail on binary dimensions; score 1-100 on graded ones;
                  both empty = a rep with no valid verdict
  gold            pass | fail, or empty; every row of an item must agree
  dimension       default task_success
Optional: simulated (true marks synthetic-judge data), placement, mitigation, cue_label,
categories_present and taxonomy_size (error attribution). Other columns are kept as they are.
Known columns: ${knownResultColumns.join(', ')}.

A file with any bad row is rejected whole, every bad row listed with its line number and
reason; nothing is stored. The study is named NAME, else the file name.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        name: { type: 'string' },
        format: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one FILE');
    if (values.name !== undefined && values.name.trim() === '')
      throw new UsageError('--name needs a non-empty NAME');
    const format = values.format;
    if (format !== undefined && format !== 'csv' && format !== 'jsonl')
      throw new UsageError(`there is no format "${format}"; formats: csv, jsonl`);
    const session = openLab(context, values.workspace);
    try {
      const path = await fileForEngine(session, positionals[0] as string);
      const summary = unwrap(
        await session.api.importResults({
          path,
          ...(values.name === undefined ? {} : { name: values.name.trim() }),
          ...(format === undefined ? {} : { format }),
        }),
      );
      io.out(
        `Imported ${countOf(summary.reps, 'rep')} (${countOf(summary.items, 'item')}, ${countOf(summary.judges, 'judge')}, ` +
          `conditions ${summary.conditions.join(', ')}) as study ${summary.studyId} "${summary.name}"` +
          `${summary.simulated ? ' [simulated]' : ''}.`,
      );
      for (const warning of summary.warnings) io.out(`warning: ${warning}`);
      io.out(`Tables: cuelab report ${summary.studyId} --table flips`);
      return exitCodes.ok;
    } catch (error) {
      return printRejectedFile('import-results', error, io);
    } finally {
      await session.close();
    }
  },
};
