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

function makeFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new CommandError(`Cannot create ${folder}: ${(error as Error).message}.`);
  }
}

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
      // One log per request: a study at the paper's scale has more than one answer can carry.
      let count = 1;
      let written = 0;
      for (let log = 0; log < count; log += 1) {
        const answer = unwrap(await session.api.exportInspect({ studyId, format, log }));
        count = answer.count;
        if (log === 0) makeFolder(folder);
        for (const entry of answer.logs) {
          const file = join(folder, entry.name);
          writeOutput(
            file,
            entry.base64 !== undefined ? Buffer.from(entry.base64, 'base64') : (entry.text ?? ''),
          );
          written += 1;
          io.out(`${file}\t${entry.judge}\t${entry.condition}\t${entry.samples} samples`);
        }
      }
      io.out(
        `Wrote ${written} Inspect log(s) to ${folder}. Open them with: inspect view --log-dir ${folder}`,
      );
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};
