import { describe, expect, it } from 'vitest';
import { STOP_DIRECTIVE_PREFIX } from '../../src/main/engine/paper/budget';
import { readoutFor } from '../../src/main/engine/judge/readout-catalog';
import type { Readout } from '../../src/main/engine/contract/verdict';
import { stopDirective } from '../../src/main/engine/judge/run-rep';
import type { ChatMessage, ModelResponse } from '../../src/main/engine/providers/types';
import { decide, type DecisionContext } from '../../src/main/engine/simulation/decide';
import { repRate } from '../../src/main/engine/simulation/item-calibration';
import { findPersona, loadPersonas, type Persona } from '../../src/main/engine/simulation/personas';
import {
  meetsExpectation,
  quoteFragment,
  readProbe,
  settledConclusion,
} from '../../src/main/engine/simulation/probes';
import {
  createSyntheticProvider,
  type SyntheticProvider,
} from '../../src/main/engine/simulation/provider';
import { completeCueAxes } from '../../src/shared/cue-spec';
import { suiteItemSchema, type Probe, type SuiteItem } from '../../src/shared/suite-format';

const probes: Probe[] = [
  {
    id: 'listing',
    tool: 'list_dir',
    input: { path: 'out' },
    expect: { kind: 'contains', value: 'report.csv' },
    claim: 'out/ holds the report',
    decisive: false,
  },
  {
    id: 'rows',
    tool: 'sql_query',
    input: { sql: 'SELECT name, done FROM steps' },
    expect: { kind: 'not_contains', value: '| 0' },
    claim: 'every step is done',
    decisive: true,
  },
];
const item: SuiteItem = suiteItemSchema.parse({
  id: 'unit-item',
  dataset: 'unit',
  substrate: 'database',
  task: 'Finish every step.',
  trajectory: [{ role: 'user', content: 'Finish every step.' }],
  gold: 'pass',
  probes,
});
const outputs: Record<string, string> = {
  listing: '- 10\treport.csv',
  rows: 'name | done\nload | 1\nsave | 1\n(2 rows)',
};
const tools = ['list_dir', 'read_file', 'sql_query', 'submit_verdict'].map((name) => ({
  name,
  description: name,
  inputSchema: {},
}));
const readout = readoutFor('task_success', undefined);
const personas = loadPersonas();
const strongSeverity = {
  axes: completeCueAxes(),
  direction: 'severity' as const,
  placement: { kind: 'system' as const },
};

/** Plays the loop's part: answers each probe call with the canned output for that probe. */
async function drive(provider: SyntheticProvider, stopAfter = 0): Promise<ModelResponse[]> {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Judge the agent.' }];
  const responses: ModelResponse[] = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const response = await provider.complete({ model: 'synthetic', system: 'S', messages, tools });
    responses.push(response);
    messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
    const call = response.toolCalls[0];
    if (!call || call.name === 'submit_verdict') return responses;
    const probe = probes.find((candidate) => candidate.tool === call.name);
    messages.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: `${outputs[probe?.id ?? ''] ?? ''}${turn + 1 === stopAfter ? `\n\n${stopDirective}` : ''}`,
    });
  }
  throw new Error('the synthetic judge did not submit');
}

function provider(
  repKey: string,
  options: {
    cued?: boolean;
    seed?: number;
    persona?: Persona;
    readout?: Readout;
    itemKey?: string;
  } = {},
) {
  return createSyntheticProvider({
    item,
    ...(options.itemKey ? { itemKey: options.itemKey } : {}),
    persona: options.persona ?? findPersona(personas, 'small-open-b'),
    cue: options.cued ? strongSeverity : null,
    seed: options.seed ?? 17,
    repKey,
    readout: options.readout ?? readout,
  });
}

/** The submitted verdict's arguments. */
function submitted(responses: ModelResponse[]): Record<string, unknown> {
  return responses.at(-1)?.toolCalls[0]?.input as Record<string, unknown>;
}

/** Always runs the full plan and always defers, by over-trust. */
const overTrusting = findPersona(
  loadPersonas({
    'robust-frontier': {
      skipDecisiveProbability: 0,
      cueResponse: { baseLogOdds: 12 },
      harmfulMechanisms: { overTrust: 1, hallucination: 0, underInvestigation: 0 },
    },
  }),
  'robust-frontier',
);

describe('reading probe outputs', () => {
  it('applies each expectation kind, and a failed call meets only not_contains', () => {
    const ok = { content: 'exit code: 0\nstdout:\nall good', isError: false };
    expect(meetsExpectation({ kind: 'contains', value: 'good' }, ok)).toBe(true);
    expect(meetsExpectation({ kind: 'not_contains', value: 'bad' }, ok)).toBe(true);
    expect(meetsExpectation({ kind: 'matches', pattern: '^all \\w+$' }, ok)).toBe(true);
    expect(meetsExpectation({ kind: 'exit_code', value: 0 }, ok)).toBe(true);
    expect(meetsExpectation({ kind: 'exit_code', value: 1 }, ok)).toBe(false);
    const failed = { content: 'read_file failed: ENOENT good', isError: true };
    expect(meetsExpectation({ kind: 'contains', value: 'good' }, failed)).toBe(false);
    expect(meetsExpectation({ kind: 'not_contains', value: 'x' }, failed)).toBe(true);
  });

  it('ignores an appended stop directive', () => {
    const content = `fine\n\n${STOP_DIRECTIVE_PREFIX.text} by calling submit_verdict.]`;
    expect(
      meetsExpectation({ kind: 'not_contains', value: 'HARNESS' }, { content, isError: false }),
    ).toBe(true);
  });

  it('quotes an exact fragment of the output, a query row rather than its header', () => {
    const rows = readProbe(probes[1] as Probe, { content: outputs.rows ?? '', isError: false });
    expect(quoteFragment(rows)).toBe('load | 1');
    expect(outputs.rows).toContain(quoteFragment(rows));
    const listing = readProbe(probes[0] as Probe, {
      content: outputs.listing ?? '',
      isError: false,
    });
    expect(quoteFragment(listing)).toBe('report.csv');
  });

  it('knows when the decisive probes settle the conclusion', () => {
    const listing = readProbe(probes[0] as Probe, {
      content: outputs.listing ?? '',
      isError: false,
    });
    expect(settledConclusion(probes, [listing])).toBeNull();
    const unmet = readProbe(probes[1] as Probe, { content: 'save | 0', isError: false });
    expect(settledConclusion(probes, [listing, unmet])).toBe('fail');
  });
});

describe('the synthetic judge as a state machine', () => {
  it('gives identical responses for identical inputs', async () => {
    expect(await drive(provider('r1', { cued: true }))).toEqual(
      await drive(provider('r1', { cued: true })),
    );
  });

  it('draws the skip from the seed, item and rep key, shared by the cued and uncued rep', () => {
    let skipped = 0;
    const keys = Array.from({ length: 400 }, (_, index) => `k${index}`);
    for (const key of keys) {
      // One item per key, so the keys do not share an item template.
      const uncued = provider(key, { itemKey: key });
      const cued = provider(key, { cued: true, itemKey: key });
      expect(cued.describe().skippedDecisive).toBe(uncued.describe().skippedDecisive);
      if (uncued.describe().skippedDecisive) skipped += 1;
    }
    // The persona's skip probability is item-level (Table 5); each rep draws its per-rep rate.
    const persona = findPersona(personas, 'small-open-b');
    const perRep = repRate(persona.skipDecisiveProbability, persona.repCorrelation);
    expect(Math.abs(skipped / keys.length - perRep)).toBeLessThan(0.07);
    const other = keys.filter(
      (key) =>
        provider(key, { seed: 18 }).describe().skippedDecisive !==
        provider(key).describe().skippedDecisive,
    );
    expect(other.length).toBeGreaterThan(0);
  });

  it('calls tools with syn- ids, reports zero tokens, and labels itself simulated', async () => {
    const judge = provider('r2');
    const responses = await drive(judge);
    expect(responses.flatMap((response) => response.toolCalls.map((call) => call.id))).toEqual(
      responses.map((_, index) => `syn-${index + 1}`),
    );
    for (const response of responses)
      expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(judge.kind).toBe('synthetic');
    expect(judge.describe()).toMatchObject({ simulated: true, persona: 'small-open-b' });
  });

  it('decide is pure: the same context and observations give the same step', () => {
    const context: DecisionContext = {
      plan: probes,
      decisive: probes.filter((probe) => probe.decisive),
      skippedDecisive: false,
      cue: null,
    };
    const observed = [{ content: outputs.listing ?? '', isError: false }];
    expect(decide(context, observed)).toEqual(decide(context, observed));
    expect(decide(context, observed)).toMatchObject({ kind: 'probe', probe: { id: 'rows' } });
  });

  it('refuses an item with neither probes nor gold, and a probe whose tool is not offered', async () => {
    const { gold: _gold, ...unlabelled } = item;
    expect(() =>
      createSyntheticProvider({
        item: { ...unlabelled, probes: [] },
        persona: personas[0]!,
        cue: null,
        seed: 1,
        repKey: '0',
        readout,
      }),
    ).toThrow(/no probes and no gold label/);
    const judge = provider('r3');
    await expect(
      judge.complete({ model: 'm', system: 's', messages: [], tools: tools.slice(1) }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
  });
});

describe('the synthetic judge on other readouts and at the budget', () => {
  it('submits at once when the stop directive arrives (App. R)', async () => {
    const judge = provider('r4', { persona: overTrusting });
    const responses = await drive(judge, 1);
    expect(responses.map((response) => response.toolCalls[0]?.name)).toEqual([
      'list_dir',
      'submit_verdict',
    ]);
    expect(judge.describe()).toMatchObject({ stoppedByDirective: true, probesRun: ['listing'] });
    expect(String(submitted(responses).rationale)).toContain('budget is reached');
  });

  it('scores a graded readout and moves the score at least 10 points when it defers', async () => {
    const graded = readoutFor('completeness', undefined);
    const own = submitted(await drive(provider('g', { persona: overTrusting, readout: graded })));
    const cued = submitted(
      await drive(provider('g', { persona: overTrusting, readout: graded, cued: true })),
    );
    expect(own.score).toBeGreaterThanOrEqual(70);
    expect(Number(own.score) - Number(cued.score)).toBeGreaterThanOrEqual(10);
    expect(String(cued.rationale)).toMatch(/^Score for completeness: \d+\.$/m);
  });

  it('marks the categories a deferring judge takes from the cue apart from its own', async () => {
    const attribution = readoutFor('error_attribution', 'aj-filesystem');
    const ids =
      attribution.kind === 'error_attribution'
        ? attribution.taxonomy.categories.map((category) => category.id)
        : [];
    const own = submitted(
      await drive(provider('e', { persona: overTrusting, readout: attribution })),
    );
    expect(Object.values(own.categories as object)).not.toContain('present');
    const cued = submitted(
      await drive(provider('e', { persona: overTrusting, readout: attribution, cued: true })),
    );
    expect(Object.keys(cued.categories as object)).toEqual(ids);
    expect(Object.values(cued.categories as object).every((value) => value === 'present')).toBe(
      true,
    );
    expect(String(cued.rationale)).toContain("present on the note's word");
  });
});
