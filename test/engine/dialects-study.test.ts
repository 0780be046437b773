import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineStore } from '../../src/main/engine/engine-store';
import { studyProgress } from '../../src/main/engine/store/study-state';
import { fakeTextDialects, type FakeDialect } from '../helpers/fake-dialects';
import {
  reply,
  startFakeModelServer,
  type FakeHandler,
  type FakeModelServer,
} from '../helpers/fake-model-server';
import { createFaultStudy } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

// An open model behind an OpenAI-compatible server without a tool parser writes its tool calls
// into the text. A study against it, read by the real openai SDK over HTTP, must reach the very
// verdicts it reaches when the server returns structured tool_calls; a reply in a shape no
// dialect reads fails its rep with the raw reply kept, never a silent verdict.

type Messages = { role: string; content: unknown }[];

/**
 * Lists the folder and reads notes.txt in one turn (two calls in one message), then passes the
 * item when the notes say "done" and no cue ("UNMET") is in the prompt. The verdict depends on
 * what the tool results carried, so calls the reader lost or garbled change it.
 */
const notesJudge: FakeHandler = (request) => {
  const messages = request.body.messages as Messages;
  const results = messages.filter((message) => message.role === 'tool');
  if (results.length === 0) {
    return reply.toolCalls([
      { name: 'list_dir', input: { path: '.' } },
      { name: 'read_file', input: { path: 'notes.txt' } },
    ]);
  }
  const read = JSON.stringify(results.map((message) => message.content));
  const cued = JSON.stringify(request.body).includes('UNMET');
  const done = read.includes('notes.txt') && /done \d/.test(read);
  return reply.toolCall('submit_verdict', {
    verdict: done && !cued ? 'pass' : 'fail',
    confidence: 0.8,
    rationale: done ? 'The notes say done.' : 'I could not read the notes.',
  });
};

let dir: ReturnType<typeof makeTempDir>;
const servers: FakeModelServer[] = [];

beforeAll(() => {
  dir = makeTempDir();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  dir.remove();
});

/** Runs a 3-item study with one compatible judge against a server speaking `dialect`. */
async function runStudy(
  name: string,
  dialect: FakeDialect | ((serial: number) => FakeDialect),
  handler: FakeHandler = notesJudge,
) {
  const server = await startFakeModelServer({ openaiDialect: dialect });
  servers.push(server);
  server.handle('openai', handler);
  const study = createFaultStudy(`${dir.path}/${name}`, {
    items: 3,
    baseUrl: server.openaiUrl,
    spec: {
      judges: [
        {
          id: 'qwen',
          provider: 'openai-compatible',
          model: 'qwen3-32b',
          baseUrl: server.openaiUrl,
        },
      ],
    },
  });
  const store = engineStore(study.engine);
  const runner = study.runner();
  runner.start();
  try {
    await until(
      () => ['completed', 'paused'].includes(studyProgress(store, study.studyId).status),
      `the ${name} study to finish`,
      30_000,
    );
  } finally {
    await runner.stop();
  }
  const progress = studyProgress(store, study.studyId);
  const verdicts = store.db
    .prepare(
      `SELECT j.item_id AS item, j.condition_key AS condition, j.rep AS rep,
              r.final_verdict_json AS verdict
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
        WHERE j.study_id = ? ORDER BY j.item_id, j.condition_key, j.rep`,
    )
    .all(study.studyId) as { item: string; condition: string; rep: number; verdict: string }[];
  const said = store.db
    .prepare(
      `SELECT m.content FROM judge_messages m JOIN judge_reps r ON r.id = m.rep_id
        WHERE r.study_id = ? AND m.role = 'assistant'`,
    )
    .all(study.studyId)
    .map((row) => (row as { content: string }).content)
    .join('\n');
  const responses = store.db
    .prepare('SELECT response_json FROM provider_calls')
    .all()
    .map((row) => (row as { response_json: string }).response_json)
    .join('\n');
  // What Replay shows of one rep: the reasoning of each turn, read back through the API.
  const firstRep = store.db
    .prepare(
      'SELECT rep_id FROM jobs WHERE study_id = ? AND rep_id IS NOT NULL ORDER BY id LIMIT 1',
    )
    .get(study.studyId) as { rep_id: string } | undefined;
  const shown = firstRep
    ? await study.engine.handlers.loadRepPair({ repA: firstRep.rep_id })
    : null;
  study.engine.close();
  return { progress, verdicts, server, said, responses, reasoning: shown?.a.reasoning ?? [] };
}

describe('a study against an OpenAI-compatible server in each tool-call dialect', () => {
  it('reaches the structured verdicts in every text dialect and in a mix across turns', async () => {
    const reference = await runStudy('structured', 'structured');
    expect(reference.progress.status).toBe('completed');
    expect(reference.progress.failed).toBe(0);
    const expected = reference.verdicts;
    // Uncued reps read the notes and pass; cued reps fail: both verdicts occur.
    const verdictOf = (row: { verdict: string }) =>
      (JSON.parse(row.verdict) as { outcome: string }).outcome;
    expect(new Set(expected.map(verdictOf))).toEqual(new Set(['pass', 'fail']));
    expect(expected.filter((row) => row.condition === 'uncued').map(verdictOf)).toEqual([
      'pass',
      'pass',
      'pass',
    ]);

    // A mix that changes dialect on every request, in an order fixed by the request serial.
    const mixed = (serial: number) => fakeTextDialects[(serial * 7) % fakeTextDialects.length]!;
    for (const dialect of [...fakeTextDialects, mixed]) {
      const name = typeof dialect === 'string' ? dialect : 'mixed';
      const run = await runStudy(name, dialect);
      expect(run.progress.failures, name).toEqual([]);
      expect(run.progress.status, name).toBe('completed');
      expect(run.verdicts, name).toEqual(expected);
      // The tool results really went back: the second request of each rep carries the notes.
      const second = run.server
        .requests('openai')
        .filter((request) =>
          (request.body.messages as Messages).some((message) => message.role === 'tool'),
        );
      expect(second.length, name).toBe(expected.length);
      for (const request of second) expect(JSON.stringify(request.body)).toMatch(/done \d/);
      // Reasoning was taken out of the text (the stored messages) and kept with the calls.
      expect(run.responses, name).toContain('I should look before deciding');
      expect(run.said, name).not.toMatch(/<\/?think>|<tool_call>|"arguments"|"parameters"/);
      // ... and Replay shows it, per turn.
      expect(
        run.reasoning.map((entry) => entry.turn),
        name,
      ).toEqual([0, 1]);
      expect(run.reasoning[0]!.text, name).toContain('I should look before deciding');
    }
  }, 180_000);

  it('fails a rep whose reply is in no known dialect, keeping the raw reply in its error', async () => {
    // Qwen3-Coder's XML calls, which no CueLab dialect reads.
    const xml: FakeHandler = () =>
      reply.text('<function=list_dir>\n<parameter=path>.</parameter>\n</function>');
    const run = await runStudy('unknown', 'structured', xml);
    expect(run.verdicts).toEqual([]);
    expect(run.progress.failures.length).toBeGreaterThan(0);
    for (const failure of run.progress.failures) {
      expect(failure.error).toMatch(/in no tool-call dialect CueLab reads \(dialect auto\)/);
      expect(failure.error).toContain('<function=list_dir>');
      expect(failure.error).toContain('<parameter=path>');
    }
    // One call per rep: an unreadable reply is not retried.
    expect(run.server.callCount('openai')).toBe(run.progress.failures.length);
  }, 60_000);
});
