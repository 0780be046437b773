import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { engineStore } from '../../src/main/engine/engine-store';
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

// A paused (frozen) rep container still reports itself running, but nothing in it runs: a
// command's timeout or a refused exec there is the environment failing, never evidence. The rep
// is not scored; it runs again on a fresh container.
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

/** `docker pause` on the rep's own container (not the one made ahead for the next rep). */
async function freezeRep(studyId: string): Promise<string> {
  const container = (await studyContainers(docker, studyId)).find(
    (candidate) => candidate.Labels[dockerLabels.madeAhead] !== 'true',
  );
  if (!container) throw new Error('no rep container carries the study label');
  await docker.getContainer(container.Id).pause();
  return container.Id;
}

describe.each(['before-command', 'mid-command'] as const)(
  'a rep container frozen with docker pause (%s)',
  (when) => {
    it('is an environment failure: the rep runs again on a fresh container, never scored frozen', async (context) => {
      needDocker(context);
      const dir = makeTempDir();
      dirs.push(dir);
      const study = createFaultStudy(workspaceIn(dir.path), {
        image,
        items: 1,
        baseUrl: server.url,
        spec: { arms: { cues: [] } },
      });
      // Mid-command the shell call runs past the 30 s tool timeout while its container is frozen.
      const judge = shellJudge(true, when === 'mid-command' ? 'sleep 3; cat notes.txt' : undefined);
      const frozen: string[] = [];
      server.handle('anthropic', async (request) => {
        const first = !lastMessageText(request).includes('tool_result');
        if (first && frozen.length === 0) {
          if (when === 'before-command') frozen.push(await freezeRep(study.studyId));
          else
            setTimeout(() => {
              void freezeRep(study.studyId).then((id) => frozen.push(id));
            }, 1000);
        }
        return judge(request);
      });
      const runner = study.runner();
      runner.start();
      await runner.whenIdle();
      await runner.stop();
      const store = engineStore(study.engine);
      try {
        expect(frozen).toHaveLength(1);
        const jobs = store.db
          .prepare('SELECT state, attempts, rep_id, last_error FROM jobs WHERE study_id = ?')
          .all(study.studyId) as { state: string; attempts: number; last_error: string }[];
        expect(jobs).toHaveLength(1);
        expect(jobs[0]).toMatchObject({ state: 'done', attempts: 2 });
        const reps = store.db
          .prepare('SELECT id, outcome FROM judge_reps WHERE study_id = ?')
          .all(study.studyId) as { id: string; outcome: string }[];
        expect(reps).toHaveLength(1);
        expect(reps[0]?.outcome).toBe('verdict');
        // The stored evidence came from a live container: the file's content, no timeout.
        const toolCalls = store.db
          .prepare('SELECT output, is_error FROM judge_tool_calls WHERE rep_id = ?')
          .all(reps[0]?.id) as { output: string; is_error: number }[];
        expect(toolCalls).toHaveLength(1);
        expect(toolCalls[0]?.output).toContain('done 1');
        expect(toolCalls[0]?.output).not.toMatch(/timed out|killed/);
        // The frozen container is gone with the rest.
        expect(await studyContainers(docker, study.studyId)).toEqual([]);
      } finally {
        study.engine.close();
      }
    }, 120_000);
  },
);
