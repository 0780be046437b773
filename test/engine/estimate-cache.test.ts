import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';

// The estimate prices a study with the prompt cache (each turn re-reads the turn before) and
// says what it would cost without.
describe('the cost estimate with and without prompt caching', () => {
  const dir = makeTempDir();
  let store: Store;
  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(
      store,
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });
  const context = {
    env: { ANTHROPIC_API_KEY: 'k' },
    dockerAvailable: true,
    baseImagePresent: true,
  };
  const estimate = (provider: string, model: string) =>
    estimateStudy(
      store,
      studySpecSchema.parse({
        name: 'cache estimate',
        suite: 'fixture-suite',
        items: { ids: ['fs-logs-01'] },
        judges: [{ id: 'j', provider, model, baseUrl: 'http://127.0.0.1:9/v1' }],
        reps: 1,
        arms: { cues: [] },
      }),
      listSuiteItems(store, 'fixture-suite'),
      context,
    );

  it('prices Anthropic reads at 0.1× and writes at 1.25× the input price', () => {
    const result = estimate('anthropic', 'claude-sonnet-4-6');
    expect(result.totalReps).toBe(1);
    // No history: 20 turns × 12 000 input and 400 output tokens at $3 / $15 per million.
    expect(result.estimatedCostWithoutCacheUsd).toBeCloseTo(0.72 + 0.12, 10);
    // 19/20 of the input read from the cache, 1/20 written.
    expect(result.estimatedCostUsd).toBeCloseTo(228_000 * 0.3e-6 + 12_000 * 3.75e-6 + 0.12, 10);
  });

  it('changes nothing where the price has no cache rates (a free compatible server)', () => {
    const result = estimate('openai-compatible', 'local');
    expect(result.estimatedCostUsd).toBe(0);
    expect(result.estimatedCostWithoutCacheUsd).toBe(0);
  });
});
