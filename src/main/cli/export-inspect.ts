/**
 * `cuelab export-inspect STUDY DIR`: the study's reps as Inspect AI logs, so
 * `inspect view --log-dir DIR` opens CueLab results beside other evaluations.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CommandError, exitCodes, UsageError, type CliCommand } from './command';
import { openLab, unwrap } from './connection';
import { writeOutput } from './files';

/** `cuelab export-inspect`: one Inspect log per judge and condition. */
export const exportInspectCommand: CliCommand = {
  name: 'export-inspect',
  summary: 'Write a study as Inspect AI logs (inspect view can open them)',
  usage: `Usage: cuelab export-inspect STUDY|latest DIR [--format json|eval] [--workspace DIR]

Writes one Inspect log (.json, log format version 2; or with --format eval Inspect's zipped
.eval) per judge and condition of STUDY into DIR. Each rep is a sample: the item is its id,
the rep number its epoch (eval.config.epochs is the study's reps), its messages and transcript
events (model, tool and score events) the judge's exact transcript, system prompt included;
its scores are the verdict and, for items with a gold label, matches_gold (C or I). A study
made by import-results has no transcripts: its samples hold the verdicts and gold labels.
Synthetic-judge logs are tagged SIMULATED. Open them with: inspect view --log-dir DIR`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, format: { type: 'string', default: 'json' } },
      allowPositionals: true,
      strict: true,
    });
    const [study, folder, ...extra] = positionals;
    if (!study || !folder || extra.length) throw new UsageError('give a STUDY and a DIR');
    const format = values.format;
    if (format !== 'json' && format !== 'eval') throw new UsageError('--format is json or eval');
    const session = openLab(context, values.workspace, { readOnly: true });
    try {
      const studyId = unwrap(await session.api.resolveStudy({ reference: study })).studyId;
      // The engine builds the logs; DIR is on this machine and only this CLI writes there.
      const { logs } = unwrap(await session.api.exportInspect({ studyId, format }));
      try {
        mkdirSync(folder, { recursive: true });
      } catch (error) {
        throw new CommandError(`Cannot create ${folder}: ${(error as Error).message}.`);
      }
      for (const log of logs) {
        const file = join(folder, log.name);
        writeOutput(
          file,
          log.base64 !== undefined ? Buffer.from(log.base64, 'base64') : (log.text ?? ''),
        );
        io.out(`${file}\t${log.judge}\t${log.condition}\t${log.samples} samples`);
      }
      io.out(
        `Wrote ${logs.length} Inspect log(s) to ${folder}. Open them with: inspect view --log-dir ${folder}`,
      );
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};
