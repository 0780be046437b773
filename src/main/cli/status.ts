import { parseArgs } from 'node:util';
import { exitCodes, UsageError, type CliCommand } from './command';
import { openLab, unwrap } from './connection';
import { formatArms, formatOutcomes, formatProgress } from './progress';
import { countOf } from './words';

/** `cuelab status`: the studies of a workspace, or one study's progress by arm. */
export const statusCommand: CliCommand = {
  name: 'status',
  summary: "Show studies, or one study's progress by arm, cost, failures (also pause, cancel)",
  usage: `Usage: cuelab status [STUDY] [--json] [--workspace DIR]
       cuelab status STUDY --pause | --cancel

Without STUDY, lists the workspace's studies. With STUDY (an id, id prefix, name or
"latest"), prints its progress per arm, cost so far, and failures with their reasons.
--pause stops a study from starting new reps (running ones finish); resume it with
"cuelab run --resume STUDY". --cancel cancels what has not run.
With --engine URL --token T it asks that running engine instead of the workspace here.`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        json: { type: 'boolean', default: false },
        pause: { type: 'boolean', default: false },
        cancel: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) throw new UsageError('give at most one STUDY');
    if ((values.pause || values.cancel) && positionals.length === 0)
      throw new UsageError('--pause and --cancel need a STUDY');
    const { api, close } = openLab(context, values.workspace, { readOnly: true });
    try {
      const [reference] = positionals;
      if (!reference) {
        const studies = unwrap(await api.listStudies({}));
        if (values.json) io.out(JSON.stringify(studies, null, 2));
        else if (studies.length === 0)
          io.out('No studies yet. Start one with: cuelab run SPEC (or: cuelab demo)');
        else
          for (const study of studies)
            io.out(
              `${study.id.slice(0, 8)}  ${study.status.padEnd(9)}  ${study.createdAt.slice(0, 19)}  ${study.name}${study.simulated ? '  [simulated]' : ''}${study.damaged ? `  [damaged: ${study.damaged}]` : ''}`,
            );
        return exitCodes.ok;
      }
      const { studyId } = unwrap(await api.resolveStudy({ reference }));
      if (values.pause) unwrap(await api.controlStudy({ studyId, action: 'pause' }));
      if (values.cancel) unwrap(await api.controlStudy({ studyId, action: 'cancel' }));
      const progress = unwrap(await api.studyProgress({ studyId }));
      if (values.json) {
        io.out(JSON.stringify(progress, null, 2));
        return exitCodes.ok;
      }
      io.out(`study ${studyId}`);
      io.out(formatProgress(progress));
      if (progress.pausedReason) io.out(`paused: ${progress.pausedReason}`);
      if (progress.undeterminedItems)
        io.out(
          `${countOf(progress.undeterminedItems, 'item×judge pair')} had no uncued majority (tie or no valid verdict): no cued reps for them`,
        );
      if (progress.missingReps > 0)
        io.out(
          `damaged: ${progress.missingReps} jobs are marked done but their rep is missing from the workspace database (not in any table); restore the workspace from a backup, or run them again: cuelab run --resume ${studyId}`,
        );
      io.out(formatOutcomes(progress));
      io.out(formatArms(progress));
      for (const retry of progress.retries) {
        io.out(
          `retrying (attempt ${retry.attempts} failed): ${retry.conditionKey} ${retry.itemId} ${retry.judgeId} rep ${retry.rep}: ${retry.error}`,
        );
      }
      for (const failure of progress.failures) {
        io.out(
          `failed: ${failure.conditionKey} ${failure.itemId} ${failure.judgeId} rep ${failure.rep}: ${failure.error}`,
        );
      }
      // A damaged workspace is not a healthy answer: scripts checking status see it.
      return progress.missingReps > 0 ? exitCodes.failed : exitCodes.ok;
    } finally {
      await close();
    }
  },
};
