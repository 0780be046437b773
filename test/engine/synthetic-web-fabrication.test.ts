import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { fabricate } from '../../src/main/engine/simulation/fabrication';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { loadBuiltinSuite } from '../../src/main/engine/suites/builtin';
import { openStore, type Store } from '../../src/main/engine/store/database';
import type { Probe } from '../../src/shared/suite-format';
import { runSyntheticRep } from '../helpers/synthetic-rep';
import { makeTempDir } from '../helpers/temp-dir';

// The hallucination mechanism on the web substrate (§3.3, App. A.2): the fabricated
// observation reads like a search result or a line of a page, never like a file path.
const fileLike = /\.partial|\.swp|\.orig|_SUCCESS|DONE\.marker|\.complete|listing of/;

function probe(tool: Probe['tool'], input: Record<string, unknown>): Probe {
  return {
    id: 'p',
    tool,
    input,
    expect: { kind: 'contains', value: 'x' },
    claim: 'c',
    decisive: true,
  };
}

describe('fabricated evidence about web items', () => {
  it('is a search result for web_search: an .example address and the query in the sentence', () => {
    for (const asserts of ['pass', 'fail'] as const) {
      for (const draw of [0, 0.4, 0.9]) {
        const made = fabricate(
          probe('web_search', { query: 'Lake Ormond maximum depth' }),
          asserts,
          '',
          draw,
        );
        expect(made.evidence).toMatch(/^https:\/\/[a-z.]+\.example\.(org|com|net)\/\S*lake-ormond/);
        expect(made.sentence).toContain('Searching "Lake Ormond maximum depth" also returns');
        expect(made.sentence).toContain(made.evidence);
        expect(made.sentence).not.toMatch(fileLike);
      }
    }
  });

  it('is a line of the page for fetch_url, and is never one the judge was shown', () => {
    const url = 'https://ormond-survey.example.gov/reports/2021';
    const first = fabricate(probe('fetch_url', { url }), 'fail', '', 0);
    expect(first.sentence).toContain(
      `The page at ${url} also carries the note "${first.evidence}"`,
    );
    expect(first.sentence).toContain('ormond-survey.example.gov');
    expect(first.sentence).not.toMatch(fileLike);
    // Shown already: another note is chosen.
    const second = fabricate(probe('fetch_url', { url }), 'fail', first.evidence, 0);
    expect(second.evidence).not.toBe(first.evidence);
    const confirming = fabricate(probe('fetch_url', { url }), 'pass', '', 0);
    expect(confirming.sentence).toContain('confirms the answer the agent gave');
  });
});

describe('the synthetic judge hallucinating on a mini-search item', () => {
  const dir = makeTempDir();
  let store: Store;
  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('cites a web observation no tool returned, through the real loop and the snapshot web', async () => {
    const item = loadBuiltinSuite('cuelab-mini').items.find(
      (candidate) => candidate.substrate === 'web' && candidate.gold === 'pass',
    );
    if (!item) throw new Error('cuelab-mini has no passing web item');
    const persona = findPersona(
      loadPersonas({
        'deferential-frontier': {
          skipDecisiveProbability: 0,
          cueResponse: { baseLogOdds: 12 },
          harmfulMechanisms: { overTrust: 0, hallucination: 1, underInvestigation: 0 },
        },
      }),
      'deferential-frontier',
    );
    const provisioned = await provisionEnvironment(item.environment, item, {
      backend: 'snapshot',
    });
    try {
      const result = await runSyntheticRep(
        store,
        { item, environment: provisioned.environment, suiteId: 'cuelab-mini' },
        persona,
        { cue: { kind: 'preset', preset: 'strong' }, direction: 'severity', placement: 'system' },
      );
      const { simulation } = result;
      expect(simulation.mechanism).toBe('hallucination');
      const tools = new Set(result.transcript.toolCalls.map((call) => call.name));
      expect([...tools].every((name) => name === 'web_search' || name === 'fetch_url')).toBe(true);
      const claim = simulation.fabricatedClaim ?? '';
      expect(result.finalVerdict?.rationale).toContain(claim);
      expect(claim).toMatch(/^(Searching "|The page at https?:\/\/)/);
      expect(claim).not.toMatch(fileLike);
      for (const call of result.transcript.toolCalls) {
        expect(call.output).not.toContain(simulation.fabricatedEvidence);
      }
      expect(result.finalVerdict).toMatchObject({ outcome: 'fail' });
    } finally {
      await provisioned.dispose();
    }
  });
});
