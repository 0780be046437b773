/**
 * Provider options per judge and per meta-judge voter (App. R: the Opus-4.7 voter runs with
 * `{"thinking": {"type": "adaptive"}}`; OpenAI reasoning models take `reasoning_effort`; the
 * tool-using judge sets no max_tokens unless asked). Checked in the bodies the real SDKs sent
 * to the fake server, in the rep's stored record, and in the voter's result.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolBudget } from '../../src/main/engine/judge/budget';
import { readoutFor } from '../../src/main/engine/judge/readout-catalog';
import { runJudgeRep } from '../../src/main/engine/runner/commit-rep';
import { runEnsemble } from '../../src/main/engine/metajudge/ensemble/run';
import {
  parseEnsembleConfig,
  providerForVoter,
} from '../../src/main/engine/metajudge/ensemble/voters';
import type { RunRecord } from '../../src/main/engine/metajudge/run-record';
import { createAnthropicProvider } from '../../src/main/engine/providers/anthropic';
import { createOpenAIProvider } from '../../src/main/engine/providers/openai';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { loadJudgeRep } from '../../src/main/engine/store/judge-reps';
import { studyJudgeSchema } from '../../src/shared/study-spec';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { MemoryEnvironment } from '../helpers/memory-environment';
import { makeTempDir } from '../helpers/temp-dir';

const pass = { verdict: 'pass', confidence: 0.9, rationale: 'the file is there' };

describe('provider options through the real SDKs', () => {
  let server: FakeModelServer;
  let store: Store;
  const dir = makeTempDir();
  beforeAll(async () => {
    server = await startFakeModelServer();
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  });
  afterAll(async () => {
    await server.close();
    store.close();
    dir.remove();
  });

  const input = () => ({
    itemId: 'item-1',
    task: 'Write out.txt.',
    trajectory: [{ role: 'user' as const, content: 'Write out.txt.' }],
    readout: readoutFor('task_success', undefined),
    environment: new MemoryEnvironment({ 'out.txt': 'done' }),
    seed: 17,
  });

  it('validates thinking and reasoning effort per provider in the spec', () => {
    const base = { id: 'j', model: 'm' };
    expect(
      studyJudgeSchema.safeParse({ ...base, provider: 'anthropic', thinking: { type: 'adaptive' } })
        .success,
    ).toBe(true);
    const wrong = studyJudgeSchema.safeParse({
      ...base,
      provider: 'openai',
      thinking: { type: 'adaptive' },
    });
    expect(wrong.error?.issues[0]?.message).toBe('thinking is an Anthropic setting');
    expect(
      studyJudgeSchema.safeParse({ ...base, provider: 'anthropic', reasoningEffort: 'high' }).error
        ?.issues[0]?.path,
    ).toEqual(['reasoningEffort']);
  });

  it('sends Anthropic extended thinking and sends its thinking blocks back with tool use', async () => {
    const thinking = { type: 'thinking', thinking: 'Check the file first.', signature: 'sig-1' };
    server.script('anthropic', [
      {
        type: 'raw',
        status: 200,
        headers: {},
        body: {
          id: 'msg-1',
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-7',
          content: [
            thinking,
            { type: 'tool_use', id: 'tu-1', name: 'read_file', input: { path: 'out.txt' } },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      },
      reply.toolCall('submit_verdict', pass),
    ]);
    const before = server.callCount('anthropic');
    const result = await runJudgeRep(store, {
      input: input(),
      provider: createAnthropicProvider({ apiKey: 'k', baseUrl: server.url, timeoutMs: 10_000 }),
      providerKind: 'anthropic',
      model: 'claude-opus-4-7',
      maxTokens: 16_000,
      reasoning: { thinking: { type: 'enabled', budgetTokens: 4096 } },
      budget: toolBudget(null),
      condition: { providerOptions: { thinking: { type: 'enabled', budgetTokens: 4096 } } },
      suiteId: 'suite',
      retry: { sleep: () => Promise.resolve() },
    });
    expect(result.transcript.outcome).toBe('verdict');
    const bodies = server.requests('anthropic').slice(before);
    expect(bodies).toHaveLength(2);
    for (const { body } of bodies) {
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      expect(body.max_tokens).toBe(16_000);
    }
    const second = bodies[1]?.body.messages as { role: string; content: unknown[] }[];
    expect(second[1]).toMatchObject({
      role: 'assistant',
      content: [thinking, { type: 'tool_use' }],
    });
    const stored = loadJudgeRep(store, result.repId);
    expect(JSON.stringify(stored?.condition)).toContain('"budgetTokens":4096');
  });

  it('sends OpenAI reasoning effort on every call', async () => {
    server.script('openai', [reply.toolCall('submit_verdict', pass)]);
    const before = server.callCount('openai');
    await runJudgeRep(store, {
      input: input(),
      provider: createOpenAIProvider({
        kind: 'openai',
        apiKey: 'k',
        baseUrl: server.openaiUrl,
        timeoutMs: 10_000,
      }),
      providerKind: 'openai',
      model: 'gpt-5',
      reasoning: { reasoningEffort: 'high' },
      budget: toolBudget(null),
      condition: {},
      suiteId: 'suite',
      retry: { sleep: () => Promise.resolve() },
    });
    expect(server.requests('openai')[before]?.body.reasoning_effort).toBe('high');
  });

  it("sends each meta-judge voter's options (App. R: Opus-4.7 adaptive) and reports them", async () => {
    const config = parseEnsembleConfig({
      voters: [
        {
          id: 'opus',
          provider: 'anthropic',
          model: 'claude-opus-4-7',
          baseUrl: server.url,
          thinking: { type: 'adaptive' },
        },
        {
          id: 'gpt',
          provider: 'openai',
          model: 'o3',
          baseUrl: server.openaiUrl,
          reasoningEffort: 'medium',
          maxTokens: 2000,
        },
      ],
    });
    server.script('anthropic', [reply.text('{"label": "over_trust"}')]);
    server.script('openai', [reply.text('{"label": "over_trust"}')]);
    const run: RunRecord = {
      repId: 'r',
      verdict: 'pass',
      rationale: '',
      calls: [],
      steps: [],
      reasoning: [],
      prompt: [],
      cue: null,
    };
    const beforeAnthropic = server.callCount('anthropic');
    const beforeOpenAI = server.callCount('openai');
    const env = {
      ANTHROPIC_API_KEY: 'k',
      OPENAI_API_KEY: 'k',
      // The fake server is a custom endpoint the user trusts.
      CUELAB_TRUSTED_ENDPOINTS: `${server.url},${server.openaiUrl}`,
    };
    const result = await runEnsemble(
      {
        kind: 'harmful',
        task: 't',
        cue: { text: 'c', direction: 'severity' },
        gold: 'pass',
        baselineVerdict: 'pass',
        cuedVerdict: 'fail',
        baseline: run,
        cued: { ...run, verdict: 'fail' },
      },
      config,
      {
        providerFor: (voter) => providerForVoter(voter, env),
        retry: { sleep: () => Promise.resolve() },
      },
    );
    expect(server.requests('anthropic')[beforeAnthropic]?.body.thinking).toEqual({
      type: 'adaptive',
    });
    const openaiBody = server.requests('openai')[beforeOpenAI]?.body;
    expect(openaiBody?.reasoning_effort).toBe('medium');
    expect(openaiBody?.max_completion_tokens).toBe(2000);
    expect(result.voters.map((voter) => voter.providerOptions)).toEqual([
      { temperature: null, maxTokens: null, thinking: { type: 'adaptive' }, reasoningEffort: null },
      { temperature: null, maxTokens: 2000, thinking: null, reasoningEffort: 'medium' },
    ]);
  });
});
