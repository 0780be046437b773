import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import {
  createFaultStudy,
  lastMessageText,
  shellJudge,
  studyContainers,
  workspaceIn,
} from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// A container that dies mid-rep is an infrastructure failure. The rep is
// never scored from the broken environment; it runs again on a fresh container, replaying the
// provider calls that had finished.
const docker = new Docker();
let available = false;
let image = '';
let server: FakeModelServer;
const dirs: ReturnType<typeof makeTempDir>[] = [];

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  server = await startFakeModelServer();
  if (available) image = await busyboxImage(docker);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.handle('anthropic', undefined);
  while (dirs.length) dirs.pop()?.remove();
});

function needDocker(context: TestContext): void {
  if (!available) context.skip('Docker is not available');
}

type Death = 'kill' | 'remove';

async function killRep(studyId: string, death: Death): Promise<string> {
  // The rep's own container: the one made ahead for the next rep waits beside it.
  const container = (await studyContainers(docker, studyId)).find(
    (candidate) => candidate.Labels[dockerLabels.madeAhead] !== 'true',
  );
  if (!container) throw new Error('no rep container carries the study label');
  const handle = docker.getContainer(container.Id);
  if (death === 'kill') await handle.kill();
  else await handle.remove({ force: true });
  return container.Id;
}

/** Runs a one-rep study (no cued arm) whose judge meets `death` at the moment `when` says. */
async function runWithDeath(death: Death, when: 'held-response' | 'mid-command') {
  const dir = makeTempDir();
  dirs.push(dir);
  const study = createFaultStudy(workspaceIn(dir.path), {
    image,
    items: 1,
    baseUrl: server.url,
    spec: { arms: { cues: [] } },
  });
  const judge = shellJudge(true, when === 'mid-command' ? 'sleep 4; cat notes.txt' : undefined);
  const killed: string[] = [];
  server.handle('anthropic', async (request) => {
    const first = !lastMessageText(request).includes('tool_result');
    if (first && killed.length === 0) {
      if (when === 'held-response') {
        // The response is held while the container dies under the rep.
        killed.push(await killRep(study.studyId, death));
      } else {
        // The command is in flight (sleep 4) when the container dies.
        setTimeout(() => {
          void killRep(study.studyId, death).then((id) => killed.push(id));
        }, 1500);
      }
    }
    return judge(request);
  });
  const runner = study.runner();
  runner.start();
  await runner.whenIdle();
  await runner.stop();
  return { study, killed };
}

describe.each([
  ['kill', 'held-response'],
  ['remove', 'held-response'],
  ['kill', 'mid-command'],
] as const)('a rep container that dies (docker %s, %s)', (death, when) => {
  it('is never scored: the rep runs again on a fresh container, finished calls replayed', async (context) => {
    needDocker(context);
    const callsBefore = server.callCount('anthropic');
    const { study, killed } = await runWithDeath(death, when);
    const store = engineStore(study.engine);
    try {
      expect(killed).toHaveLength(1);
      const jobs = store.db
        .prepare('SELECT state, attempts, rep_id, last_error FROM jobs WHERE study_id = ?')
        .all(study.studyId) as { state: string; attempts: number; rep_id: string }[];
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ state: 'done', attempts: 2 });
      // One stored rep, and its evidence came from a live container: the file's content.
      const reps = store.db
        .prepare('SELECT id, outcome FROM judge_reps WHERE study_id = ?')
        .all(study.studyId) as { id: string; outcome: string }[];
      expect(reps).toEqual([{ id: jobs[0]?.rep_id, outcome: 'verdict' }]);
      const toolCalls = store.db
        .prepare('SELECT name, output, is_error FROM judge_tool_calls WHERE rep_id = ?')
        .all(reps[0]?.id) as { name: string; output: string; is_error: number }[];
      expect(toolCalls).toHaveLength(1);
      expect(toolCalls[0]?.output).toContain('done 1');
      expect(toolCalls[0]?.is_error).toBe(0);
      // The first call had finished when the container died: replayed, not repeated.
      expect(server.callCount('anthropic') - callsBefore).toBe(2);
      // Both containers are gone, the dead one included.
      expect(await studyContainers(docker, study.studyId)).toEqual([]);
    } finally {
      study.engine.close();
    }
  }, 60_000);
});

describe('rep containers', () => {
  it('carry the workspace and study labels', async (context) => {
    needDocker(context);
    const dir = makeTempDir();
    dirs.push(dir);
    const workspace = workspaceIn(dir.path);
    const study = createFaultStudy(workspace, {
      image,
      items: 1,
      baseUrl: server.url,
      spec: { arms: { cues: [] } },
    });
    const seen: Record<string, string>[] = [];
    const judge = shellJudge();
    server.handle('anthropic', async (request) => {
      for (const container of await studyContainers(docker, study.studyId))
        seen.push(container.Labels);
      return judge(request);
    });
    const runner = study.runner();
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    study.engine.close();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({
      [dockerLabels.workspace]: workspace,
      [dockerLabels.study]: study.studyId,
      [dockerLabels.kind]: 'rep',
    });
  }, 60_000);
});
