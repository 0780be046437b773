import { parseArgs } from 'node:util';
import { providerCatalogue } from '../../shared/catalogue/providers';
import type { LabApi } from '../../shared/lab-api';
import { keyNameRule } from '../../shared/secrets';
import type { StudyProgress } from '../../shared/study-progress';
import { removeOrphans, type Engine } from '../engine/engine';
import { readFileSync } from 'node:fs';
import { CommandError, exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { openLab, unwrap, type LabSession } from './connection';
import { formatProgress } from './progress';
import { dockerLogPath, quietProgress } from './quiet-log';
import { countOf } from './words';

/** The hosts keys may go to without the user's word, as the provider catalogue lists them. */
const providerHosts = providerCatalogue
  .flatMap((entry) => entry.trustedHosts)
  .map((origin) => new URL(origin).host)
  .join(', ');

/** `cuelab run`: create a study from a spec and run it to the end (or a pause). */
export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Run a study from a spec file (JSON or YAML), with progress, ETA and cost',
  usage: `Usage: cuelab run SPEC [--workspace DIR] [--trust-endpoint URL]... [--allow-key-env NAME]...
       cuelab run --resume STUDY [--workspace DIR] [--trust-endpoint URL]...

Creates a study from SPEC and runs it: the uncued reps first; when an item's uncued reps are
done its majority is fixed and its cued reps are queued (§3.1). Everything is stored as it
happens: interrupt it (Ctrl-C) or lose the process, and "cuelab run --resume STUDY" (or the
app) goes on where it stopped without repeating a finished provider call.
STUDY is an id, an id prefix, a study name, or "latest".

Keys go only to the provider's own host (${providerHosts}): a judge whose
baseUrl is anything else (a local server included) runs only with --trust-endpoint URL, and
apiKeyEnv may name only key variables (${keyNameRule}) unless
--allow-key-env NAME lists it.

With --engine URL --token T the study is created in that running engine, which runs it;
this command follows its progress (Ctrl-C stops following, not the study). There
--allow-key-env and a resume's --trust-endpoint are the engine's own settings
(CUELAB_ALLOWED_KEY_ENV, CUELAB_TRUSTED_ENDPOINTS where it runs).`,
  async run(args, io, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        resume: { type: 'string' },
        'trust-endpoint': { type: 'string', multiple: true },
        'allow-key-env': { type: 'string', multiple: true },
      },
      allowPositionals: true,
      strict: true,
    });
    if (!values.resume && positionals.length !== 1)
      throw new UsageError('give one SPEC file, or --resume STUDY');
    const endpoints = values['trust-endpoint'] ?? [];
    const keyEnvNames = values['allow-key-env'] ?? [];
    if (context?.remote && (keyEnvNames.length || (values.resume && endpoints.length)))
      throw new UsageError(
        `${keyEnvNames.length ? '--allow-key-env' : "a resume's --trust-endpoint"} is set where the engine runs, not through --engine`,
      );
    // The spec file is on this machine: read it here; the engine checks it (FILE:LINE errors).
    const specPath = values.resume ? undefined : (positionals[0] as string);
    const specFile = specPath === undefined ? undefined : readSpecFile(specPath);
    const session = openLab(context, values.workspace);
    const { api, engine } = session;
    try {
      // The person at this terminal allowed these with flags; the engine checks every judge.
      engine?.grantTrust({ endpoints, keyEnvNames });
      let studyId: string;
      if (specFile) {
        const created = unwrap(await api.createStudy({ specFile, trustedEndpoints: endpoints }));
        studyId = created.studyId;
        io.out(
          `Study ${studyId} "${created.name}": ${countOf(created.itemCount, 'item')} × ${countOf(created.judgeCount, 'judge')} × ` +
            `${countOf(created.conditionCount, 'condition')} × ${countOf(created.reps, 'rep')} (cued reps queue as uncued majorities are fixed).`,
        );
      } else {
        studyId = unwrap(await api.resolveStudy({ reference: values.resume as string })).studyId;
        // Before the resume, which refuses a completed or cancelled study: containers a stopped
        // engine left are removed whatever the study's state.
        await sweepOrphans(session, io);
        unwrap(await api.controlStudy({ studyId, action: 'resume' }));
        io.out(`Resuming study ${studyId}.`);
      }
      return await followStudy(session, studyId, io, { swept: !specFile });
    } finally {
      await session.close();
    }
  },
};

/** Statuses after which a study runs no more reps until someone acts. */
const settled = new Set(['paused', 'cancelled', 'completed', 'failed']);

/**
 * Follows one study until nothing is left to do (or it pauses), printing progress at most
 * every second, and picks the exit code. With a local engine it runs the study here (after
 * removing containers a stopped engine left); a remote engine runs it itself.
 */
export async function followStudy(
  session: LabSession,
  studyId: string,
  io: CliIo,
  options: { swept?: boolean } = {},
): Promise<number> {
  if (!options.swept) await sweepOrphans(session, io);
  return followProgress(session.api, session.engine, studyId, io);
}

/** With a local engine, removes the containers a stopped engine left (none to a remote one). */
async function sweepOrphans(session: LabSession, io: CliIo): Promise<void> {
  if (!session.engine) return;
  const removed = await removeOrphans().catch(() => []);
  if (removed.length) io.out(`Removed ${removed.length} containers left by a stopped engine.`);
}

async function followProgress(
  api: LabApi,
  engine: Engine | null,
  studyId: string,
  io: CliIo,
): Promise<number> {
  const progress = async () => unwrap(await api.studyProgress({ studyId }));
  let interrupted = false;
  let wake = () => undefined as void;
  const interrupt = () => {
    interrupted = true;
    io.err(
      engine
        ? `Interrupted: stopping; resume with "cuelab run --resume ${studyId}".`
        : `Stopped following; the engine goes on with study ${studyId} (cuelab status ${studyId}).`,
    );
    if (engine) void engine.stopRunner();
    wake();
  };
  process.once('SIGINT', interrupt);
  let storageProblem: string | null = null;
  try {
    let finished = false;
    if (engine) {
      const { concurrency } = unwrap(await api.getStudySpec({ studyId }));
      engine.startRunner({
        concurrency: Math.min(concurrency.total, concurrency.containers),
        studyIds: [studyId],
        // Image builds write hundreds of lines: one on the terminal, the rest in a log file.
        onProvisionProgress: quietProgress(io, dockerLogPath(), 'preparing item environments'),
        onRequeued: (count) =>
          io.out(`Requeued ${countOf(count, 'rep')} left running by a stopped engine.`),
      });
      void engine.whenRunnerIdle().then((problem) => {
        storageProblem = problem;
        finished = true;
        wake();
      });
    }
    let printed = '';
    while (!interrupted && !finished) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (interrupted || finished) break;
      // ETA comes from the engine (estimateEta), the same number the window shows.
      const now = await progress();
      const line = formatProgress(now);
      if (line !== printed) io.out(line);
      printed = line;
      if (!engine && settled.has(now.status)) finished = true;
    }
    // In-flight reps of an interrupted run go back to the queue for --resume.
    if (engine) await engine.stopRunner();
  } finally {
    process.off('SIGINT', interrupt);
  }
  const last = await progress();
  io.out(formatProgress(last));
  return reportEnd(last, studyId, storageProblem, io);
}

/**
 * Says how the run ended and picks the exit code: 0 only for a completed study with no
 * failed rep; a pause (cost cap, rejected key, disk full), a failure or a stop exit 1.
 */
function reportEnd(
  progress: StudyProgress,
  studyId: string,
  storageProblem: string | null,
  io: CliIo,
): number {
  if (storageProblem) {
    io.err(`Stopped: ${storageProblem.replace('STUDY', studyId)}`);
    return exitCodes.failed;
  }
  if (progress.status === 'paused') {
    io.err(`Paused: ${(progress.pausedReason ?? 'no reason given').replace('STUDY', studyId)}`);
    return exitCodes.failed;
  }
  if (progress.status === 'completed') {
    io.out(`Completed. Tables: cuelab report ${studyId} --table flips`);
    if (progress.failed > 0) {
      io.err(`${countOf(progress.failed, 'rep')} failed for good; see: cuelab status ${studyId}`);
      return exitCodes.failed;
    }
    return exitCodes.ok;
  }
  io.err(
    `The study is ${progress.status}, not completed` +
      (progress.status === 'running' ? `; go on with: cuelab run --resume ${studyId}` : '.'),
  );
  return exitCodes.failed;
}

/** The text of the spec file at `path` on this machine. */
function readSpecFile(path: string): { name: string; text: string } {
  try {
    return { name: path, text: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new CommandError(`Cannot read the study spec ${path}: ${(error as Error).message}.`);
  }
}
