/**
 * An item whose SQL never ends, in a real study run by the engine's own runner: the item is
 * refused with the time limit named while the event loop keeps turning and another item's rep
 * is judged to its verdict beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, faultSuiteId, workspaceIn } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

let models: FakeModelServer;
const dirs: { remove: () => void }[] = [];
const saved = process.env.CUELAB_SQL_TIMEOUT_SECONDS;

beforeAll(async () => {
  models = await startFakeModelServer();
  process.env.CUELAB_SQL_TIMEOUT_SECONDS = '3';
});
afterAll(async () => {
  if (saved === undefined) delete process.env.CUELAB_SQL_TIMEOUT_SECONDS;
  else process.env.CUELAB_SQL_TIMEOUT_SECONDS = saved;
  await models.close();
  for (const dir of dirs) dir.remove();
});

const item = (id: string, sql: string) => ({
  id,
  dataset: 'untrusted-sql',
  substrate: 'database',
  task: 'Count the rows of t.',
  trajectory: [
    { role: 'user', content: 'Count the rows of t.' },
    { role: 'assistant', content: 'There are two. Done.' },
  ],
  environment: { files: {}, database: { path: 'state.db', sql } },
  gold: 'pass',
});

const suite = suiteFileSchema.parse({
  id: faultSuiteId,
  name: 'Untrusted SQL',
  description: 'One SQL bomb, one honest item.',
  toolBudget: 4,
  items: [
    item(
      'sql-bomb',
      'CREATE TABLE t AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c;',
    ),
    item('honest', 'CREATE TABLE t (x); INSERT INTO t VALUES (1), (2);'),
  ],
});

describe('a SQL bomb in a running study', () => {
  it('is refused with its limit named while the engine judges the other item', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const study = createFaultStudy(workspaceIn(dir.path), {
      items: 2,
      baseUrl: models.url,
      spec: { arms: { cues: [] }, concurrency: { total: 2, containers: 2 } },
      suite,
    });
    models.handle('anthropic', (request) => {
      const messages = request.body.messages as { role: string }[];
      return messages.some((message) => message.role === 'assistant')
        ? reply.toolCall('submit_verdict', { verdict: 'pass', confidence: 0.9, rationale: 'Two.' })
        : reply.toolCall('sql_query', { sql: 'SELECT count(*) FROM t' });
    });
    let last = Date.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 50);
    const runner = study.runner({ concurrency: 2 });
    try {
      runner.start();
      await runner.whenIdle();
      await runner.stop();
    } finally {
      clearInterval(ticker);
    }
    const store = engineStore(study.engine);
    try {
      const verdicts = store.db
        .prepare('SELECT item_id AS item, outcome FROM judge_reps WHERE study_id = ?')
        .all(study.studyId) as { item: string; outcome: string }[];
      expect(verdicts).toEqual([{ item: 'honest', outcome: 'verdict' }]);
      const bomb = store.db
        .prepare('SELECT state, last_error AS error FROM jobs WHERE study_id = ? AND item_id = ?')
        .all(study.studyId, 'sql-bomb') as { state: string; error: string | null }[];
      expect(bomb.length).toBeGreaterThan(0);
      for (const job of bomb) {
        expect(job.state).toBe('failed');
        expect(job.error).toMatch(
          /item sql-bomb: environment\.database\.sql did not finish within 3 s \(the item SQL time limit\)/,
        );
      }
      // "Never blocked", not a speed: a blocked loop shows one gap of the whole 3 s.
      expect(longestGap).toBeLessThan(2000);
    } finally {
      study.engine.close();
    }
  }, 120_000);
});
