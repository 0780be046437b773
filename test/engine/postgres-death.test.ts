import Docker from 'dockerode';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import {
  createFaultStudy,
  faultSuiteId,
  lastMessageText,
  studyContainers,
  workspaceIn,
} from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// On the PostgreSQL substrate: the judge's sql_query goes through the rep's
// own exec path, so a container that dies while a query runs is an infrastructure failure
// (the rep runs again on a fresh container), never a failed query the judge goes on to score.
const docker = new Docker();
let available = false;
let server: FakeModelServer;
const dirs: ReturnType<typeof makeTempDir>[] = [];

const suite = suiteFileSchema.parse({
  id: faultSuiteId,
  name: 'Postgres fault suite',
  description: 'One Postgres item for the container-death test.',
  toolBudget: 4,
  items: [
    {
      id: 'pg-item',
      dataset: 'faults',
      substrate: 'postgres',
      task: 'Insert the three orders.',
      trajectory: [
        { role: 'user', content: 'Insert the three orders.' },
        { role: 'assistant', content: 'Inserted them. Done.' },
      ],
      environment: {
        shell: true,
        postgres: {
          sql: 'CREATE TABLE orders (id integer PRIMARY KEY);\nINSERT INTO orders VALUES (1), (2), (3);\n',
        },
      },
      gold: 'pass',
    },
  ],
});

// Slow enough that the container can be killed while it runs.
const slowQuery = 'SELECT pg_sleep(4) IS NULL AS slept, count(*) AS orders FROM orders';

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  server = await startFakeModelServer();
  if (available) await ensurePostgresImage({ docker });
}, 900_000);
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

describe('a Postgres rep container killed during sql_query', () => {
  it('is an infrastructure failure: the rep reruns on a fresh container, never scored from the dead one', async (context) => {
    needDocker(context);
    const dir = makeTempDir();
    dirs.push(dir);
    const study = createFaultStudy(workspaceIn(dir.path), {
      items: 1,
      baseUrl: server.url,
      spec: { arms: { cues: [] } },
      suite,
    });
    const killed: string[] = [];
    let verdictCalls = 0;
    server.handle('anthropic', (request) => {
      if (!lastMessageText(request).includes('tool_result')) {
        if (killed.length === 0) {
          // The query is in flight (pg_sleep) when the container dies under it.
          setTimeout(() => {
            void studyContainers(docker, study.studyId).then(async (containers) => {
              // The rep's own container, not the one made ahead for the next rep.
              const container = containers.find(
                (candidate) => candidate.Labels[dockerLabels.madeAhead] !== 'true',
              );
              if (!container) return;
              await docker.getContainer(container.Id).kill();
              killed.push(container.Id);
            });
          }, 2500);
        }
        return reply.toolCall('sql_query', { sql: slowQuery });
      }
      verdictCalls += 1;
      return reply.toolCall('submit_verdict', {
        verdict: 'pass',
        confidence: 0.8,
        rationale: 'The orders table holds three rows.',
      });
    });
    const runner = study.runner();
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    const store = engineStore(study.engine);
    try {
      expect(killed).toHaveLength(1);
      const jobs = store.db
        .prepare('SELECT state, attempts, rep_id, last_error FROM jobs WHERE study_id = ?')
        .all(study.studyId) as {
        state: string;
        attempts: number;
        rep_id: string;
        last_error: string;
      }[];
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ state: 'done', attempts: 2 });
      expect(jobs[0]?.last_error ?? '').not.toMatch(/the query failed/);
      const reps = store.db
        .prepare('SELECT id, outcome FROM judge_reps WHERE study_id = ?')
        .all(study.studyId) as { id: string; outcome: string }[];
      expect(reps).toEqual([{ id: jobs[0]?.rep_id, outcome: 'verdict' }]);
      // The stored evidence is the live server's answer, not the dead one's error.
      const toolCalls = store.db
        .prepare('SELECT name, output, is_error FROM judge_tool_calls WHERE rep_id = ?')
        .all(reps[0]?.id) as { name: string; output: string; is_error: number }[];
      expect(toolCalls).toEqual([
        {
          name: 'sql_query',
          output: expect.stringMatching(/\| 3\n\(1 rows\)/) as string,
          is_error: 0,
        },
      ]);
      // The judge never saw the dead container's query error: one verdict call in all.
      expect(verdictCalls).toBe(1);
      expect(await studyContainers(docker, study.studyId)).toEqual([]);
    } finally {
      study.engine.close();
    }
  }, 180_000);
});
