import { parseArgs } from 'node:util';
import type { StudyJudge } from '../../shared/study-spec';
import { createEngine } from '../engine/engine';
import {
  combineTrust,
  endpointProblem,
  trustFromEnv,
  type EndpointTrust,
} from '../engine/providers/endpoint-trust';
import { isProcessAlive } from '../engine/environments/docker/lock';
import { removeOrphans } from '../engine/environments/docker/orphans';
import { createStudy } from '../engine/runner/create-study';
import { requeueOrphanedJobs } from '../engine/store/jobs';
import { loadStudy, resolveStudyId } from '../engine/runner/load-study';
import { StudyRunner } from '../engine/runner/runner';
import { loadStudySpec } from '../engine/runner/spec-file';
import { resumeStudy, studyProgress } from '../engine/store/study-state';
import { workspaceRunnerDeps } from '../engine/runner/workspace-deps';
import { ensureSuite } from '../engine/suites/builtin';
import { workspaceForProcess } from '../engine/workspace';
import type { StudyProgress } from '../../shared/study-progress';
import type { Store } from '../engine/store/database';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { formatProgress } from './progress';

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

Keys go only to the provider's own host (api.anthropic.com, api.openai.com): a judge whose
baseUrl is anything else (a local server included) runs only with --trust-endpoint URL, and
apiKeyEnv may name only *_API_KEY / *_TOKEN variables unless --allow-key-env NAME lists it.`,
  async run(args, io) {
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
    const spec = values.resume ? undefined : loadStudySpec(positionals[0] as string);
    const trust = combineTrust(trustFromEnv(process.env), {
      endpoints: values['trust-endpoint'] ?? [],
      keyEnvNames: values['allow-key-env'] ?? [],
    });
    if (spec) requireTrustedJudges(spec.judges, trust);
    const engine = createEngine(workspaceForProcess(values.workspace));
    try {
      let studyId: string;
      if (spec) {
        const suite = ensureSuite(engine.store, spec.suite);
        studyId = createStudy(engine.store, spec, suite.items);
        const study = loadStudy(engine.store, studyId);
        io.out(
          `Study ${studyId} "${spec.name}": ${study.items.size} items × ${spec.judges.length} judges × ` +
            `${study.conditions.size} conditions × ${spec.reps} reps (cued reps queue as uncued majorities are fixed).`,
        );
      } else {
        studyId = resolveStudyId(engine.store, values.resume as string);
        resumeStudy(engine.store, studyId);
        io.out(`Resuming study ${studyId}.`);
      }
      return await runToEnd(engine.store, studyId, io, trust);
    } finally {
      engine.close();
    }
  },
};

/** Refuses, before anything is stored, judges that would send a key where the user did not allow. */
function requireTrustedJudges(judges: readonly StudyJudge[], trust: EndpointTrust): void {
  const problems = judges.flatMap((judge) => {
    const problem = endpointProblem(judge, trust);
    return problem ? [`judge ${judge.id}: ${problem}`] : [];
  });
  if (problems.length) throw new UsageError(problems.join('\n'));
}

/** Runs one study until nothing is left to do (or it pauses); prints progress. */
export async function runToEnd(
  store: Store,
  studyId: string,
  io: CliIo,
  trust?: EndpointTrust,
): Promise<number> {
  const removed = await removeOrphans().catch(() => []);
  if (removed.length) io.out(`Removed ${removed.length} containers left by a stopped engine.`);
  const requeued = requeueOrphanedJobs(store, isProcessAlive);
  if (requeued) io.out(`Requeued ${requeued} reps left running by a stopped engine.`);
  const study = loadStudy(store, studyId);
  let lastPrint = 0;
  const print = (force = false) => {
    if (!force && Date.now() - lastPrint < 1000) return;
    lastPrint = Date.now();
    // ETA comes from the engine (estimateEta), the same number the window shows.
    io.out(formatProgress(studyProgress(store, studyId)));
  };
  const runner = new StudyRunner(
    workspaceRunnerDeps(store, {
      onProvisionProgress: (line) => io.out(`  ${line}`),
      ...(trust ? { trust } : {}),
    }),
    {
      concurrency: Math.min(study.spec.concurrency.total, study.spec.concurrency.containers),
      studyIds: [studyId],
      onChange: () => print(),
    },
  );
  const interrupt = () => {
    io.err(`Interrupted: stopping; resume with "cuelab run --resume ${studyId}".`);
    void runner.stop();
  };
  process.once('SIGINT', interrupt);
  try {
    runner.start();
    await Promise.race([
      runner.whenIdle(),
      new Promise<void>((resolve) => process.once('SIGINT', () => resolve())),
    ]);
    await runner.stop();
  } finally {
    process.off('SIGINT', interrupt);
  }
  const storageProblem = runner.storageProblem;
  const progress = studyProgress(store, studyId, null);
  print(true);
  return reportEnd(progress, studyId, storageProblem, io);
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
      io.err(`${progress.failed} reps failed for good; see: cuelab status ${studyId}`);
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
