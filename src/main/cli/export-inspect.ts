/**
 * `cuelab export-inspect STUDY DIR` (issue 11): the study's reps as Inspect AI logs, so
 * `inspect view --log-dir DIR` opens CueLab results beside other evaluations.
 */
import { parseArgs } from 'node:util';
import { createEngine } from '../engine/engine';
import { exportInspectLogs } from '../engine/export/inspect-log';
import { resolveStudyId } from '../engine/runner/load-study';
import { workspaceForProcess } from '../engine/workspace';
import { exitCodes, UsageError, type CliCommand } from './command';

/** `cuelab export-inspect`: one Inspect log per judge and condition. */
export const exportInspectCommand: CliCommand = {
  name: 'export-inspect',
  // It reads a bundle file on this machine and opens no workspace.
  local: true,
  summary: 'Write a study as Inspect AI logs (inspect view can open them)',
  usage: `Usage: cuelab export-inspect STUDY|latest DIR [--format json|eval] [--workspace DIR]

Writes one Inspect log (.json, log format version 2; or with --format eval Inspect's zipped
.eval) per judge and condition of STUDY into DIR. Each rep is a sample: the item is its id, the rep number its epoch, its messages the
judge's exact transcript (system prompt included); its scores are the verdict and, for
items with a gold label, matches_gold (C or I). Open them with: inspect view --log-dir DIR`,
  run(args, io) {
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
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      const studyId = resolveStudyId(engine.store, study);
      const written = exportInspectLogs(engine.store, studyId, folder, format);
      for (const log of written) {
        io.out(`${log.file}\t${log.judge}\t${log.condition}\t${log.samples} samples`);
      }
      io.out(
        `Wrote ${written.length} Inspect log(s) to ${folder}. Open them with: inspect view --log-dir ${folder}`,
      );
      return Promise.resolve(exitCodes.ok);
    } finally {
      engine.close();
    }
  },
};
