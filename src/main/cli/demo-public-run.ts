/**
 * The demo's second part: a public Terminal-Bench run (resources/runs, with its licence in
 * PROVENANCE.md there) imported as any user's runs are, and judged by the same simulated
 * personas and cues. The run has no probes, so the synthetic judge reads its trajectory and
 * decides from its persona's rates and the run's gold label; the table is marked SIMULATED.
 */
import { join } from 'node:path';
import type { StudySpec } from '../../shared/study-spec';
import type { CliIo } from './command';
import { unwrap, type LabSession } from './connection';
import { followStudy } from './run';
import { resourcesDir } from '../engine/machine';

/** The suite the demo imports the public run into. */
export const DEMO_PUBLIC_SUITE = 'demo-public-run';

/** The public run's folder in the shipped resources (a `tb run` trial and its task). */
export function demoPublicRunPath(): string {
  return join(resourcesDir(), 'runs', 'terminal-bench-hello-world');
}

/** Imports the public run, judges it with the demo's judges and cues, prints its flip table. */
export async function judgePublicRun(
  session: LabSession,
  demoSpec: StudySpec,
  io: CliIo,
): Promise<number> {
  const outcome = unwrap(
    await session.api.importRuns({
      path: demoPublicRunPath(),
      format: 'terminal-bench',
      name: DEMO_PUBLIC_SUITE,
      save: true,
    }),
  );
  const runs = outcome.imported.map((run) => `${run.id} (gold ${run.gold ?? '-'})`).join(', ');
  io.out('');
  io.out(`Judging a public Terminal-Bench run (${runs}): the judge reads its trajectory.`);
  const spec: StudySpec = {
    ...demoSpec,
    name: 'Demo: a public Terminal-Bench run (simulated)',
    suite: DEMO_PUBLIC_SUITE,
    items: {},
  };
  const { studyId } = unwrap(await session.api.createStudy({ spec }));
  io.out(`Running the demo study ${studyId} (${spec.name}).`);
  const code = await followStudy(session, studyId, io);
  io.out('');
  io.out(unwrap(await session.api.formatReport({ studyId, table: 'flips', format: 'md' })).text);
  return code;
}
