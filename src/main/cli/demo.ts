import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { StudySpec } from '../../shared/study-spec';
import type { CliCommand } from './command';
import { openLab, unwrap } from './connection';
import { demoSpecWithItems, substratesLine } from './demo-items';
import { offlineDemoSpec, writeDemoFigure } from './demo-offline';
import { judgePublicRun } from './demo-public-run';
import { quietProgress, dockerLogPath } from './quiet-log';
import { followStudy } from './run';
import {
  calibrationCheck,
  createDockerClient,
  ensureBaseImage,
  ensurePostgresImage,
  ensureWorkspaceSuite,
  findPersona,
  findPostgresImage,
  formatCalibration,
  loadPersonas,
  loadStudySpec,
  probeDocker,
  resourcesDir,
} from '../engine/machine';

/** The ready-made demo study shipped in resources/studies (the app offers the same one). */
export function demoSpecPath(): string {
  return join(resourcesDir(), 'studies', 'demo.json');
}

/** Items of the calibration simulation the demo prints (seconds per persona, no containers). */
const CALIBRATION_ITEMS = 4000;

/**
 * The demo's personas against the paper: a study of six items cannot land inside the paper's
 * intervals, so the demo also prints the seeded calibration simulation of its personas.
 */
async function demoCalibration(spec: StudySpec): Promise<string[]> {
  const personas = loadPersonas();
  const ids = [...new Set(spec.judges.flatMap((judge) => (judge.persona ? [judge.persona] : [])))];
  const checks = [];
  for (const id of ids) {
    checks.push(await calibrationCheck(findPersona(personas, id), { items: CALIBRATION_ITEMS }));
  }
  return formatCalibration(checks, CALIBRATION_ITEMS);
}

/** `cuelab demo`: prepare what is needed, run the demo study, print its tables. */
export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Run a small ready-made study with the synthetic judge and print its tables',
  // It builds this machine's Docker base image first, so it never drives a remote engine.
  local: true,
  usage: `Usage: cuelab demo [--workspace DIR] [--postgres]

Runs the demo study offline: a few items of the built-in suite cuelab-mini in real Docker
containers, two synthetic judge personas, the strong cue (§3.1) in both directions, 3 reps.
It first builds the Docker base image if this machine lacks it (about a minute, once).
Without Docker it judges only the items that need no container (the web items, served from
their offline snapshots) and says which it skipped; no image is built.
It writes a figure (harmful flips by cue direction, per judge) as a PNG in the workspace's
figures folder and prints its path.
Then it checks the two personas' calibration against the paper on a seeded in-memory
simulation of 4000 items, saying which numbers each was fitted to (App. D, Table 5 before,
Table 6 helpful) and which validate it (Table 5 adversarial and untargeted, Fig. 3's sign).
A PostgreSQL item is included when the Postgres image is already built, or with --postgres
(which builds it first when needed: a few minutes, once). The output names the substrates.
Last it imports a public Terminal-Bench run shipped with CueLab (Apache-2.0) and judges it
the same way: the run has no probes, so the simulated judge reads its trajectory and decides
from its persona's rates and the run's gold label.
The synthetic judge is a SIMULATION: its tables are marked as such.`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, postgres: { type: 'boolean' } },
      strict: true,
    });
    const docker = await probeDocker();
    let withPostgres = false;
    if (docker.available) {
      io.out('Preparing the Docker base image (built once per machine)…');
      const log = dockerLogPath();
      const baseLog = quietProgress(io, log, 'building the base image');
      const image = await ensureBaseImage({
        onProgress: (progress) => {
          if (progress.phase !== 'done')
            baseLog(`[${Math.round(progress.elapsedSeconds)} s] ${progress.message}`);
        },
      });
      io.out(image.built ? `  built ${image.tag}` : `  ${image.tag} is ready`);
      withPostgres = (await findPostgresImage(createDockerClient())) !== undefined;
      if (values.postgres && !withPostgres) {
        io.out('Preparing the PostgreSQL image (built once per machine, a few minutes)…');
        const postgresLog = quietProgress(io, log, 'building the PostgreSQL image');
        const built = await ensurePostgresImage({
          onProgress: (progress) => {
            if (progress.phase !== 'done')
              postgresLog(`[${Math.round(progress.elapsedSeconds)} s] ${progress.message}`);
          },
        });
        io.out(`  built ${built.tag}`);
        withPostgres = true;
      }
    } else {
      io.out(`Docker is not running here: ${docker.problem ?? 'it does not answer.'}`);
      io.out('The demo runs without containers: only the items that need none are judged.');
    }
    const demoSpec = loadStudySpec(demoSpecPath());
    const session = openLab(undefined, values.workspace);
    try {
      // The demo is local (it built this machine's images), so its engine is in this process.
      const suite = ensureWorkspaceSuite(session.engine!, demoSpec.suite);
      const offline = docker.available ? null : offlineDemoSpec(demoSpec, suite.items);
      const spec = offline?.spec ?? demoSpecWithItems(demoSpec, suite.items, withPostgres);
      const { studyId } = unwrap(await session.api.createStudy({ spec }));
      io.out(`Running the demo study ${studyId} (${spec.name}).`);
      io.out(substratesLine(spec, suite.items));
      if (offline?.skipped) io.out(offline.skipped);
      else if (!withPostgres) io.out('  (no PostgreSQL item: add one with cuelab demo --postgres)');
      const code = await followStudy(session, studyId, io);
      for (const table of ['flips', 'severity'] as const) {
        io.out('');
        io.out(unwrap(await session.api.formatReport({ studyId, table, format: 'md' })).text);
      }
      io.out('');
      await writeDemoFigure(session, studyId, io);
      io.out('');
      io.out((await demoCalibration(spec)).join('\n'));
      const publicCode = await judgePublicRun(session, demoSpec, io);
      return code === 0 ? publicCode : code;
    } finally {
      await session.close();
    }
  },
};
