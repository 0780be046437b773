import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { STRONG_LENIENCY_CUE } from '../../src/main/engine/paper/cue-wordings';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import { createLabClient } from '../../src/shared/lab-client';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('LabApi.previewPrompt', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let server: RunningServer;

  beforeAll(async () => {
    engine = createEngine({ path: dir.path, source: 'flag' });
    saveSuite(
      engineStore(engine),
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    server = await startServer({ engine, rendererDir: dir.path });
  });
  afterAll(async () => {
    await server.close();
    engine.close();
    dir.remove();
  });

  it('returns the exact prompt with the cue span, through the typed client', async () => {
    const client = createLabClient(server.address);
    const result = await client.previewPrompt({
      suiteId: 'fixture-suite',
      itemId: 'fs-logs-01',
      condition: {
        cue: { kind: 'preset', preset: 'strong' },
        direction: 'leniency',
        placement: 'assistant',
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const preview = result.value;
    expect(preview.backend).toBe('snapshot');
    expect(preview.cueSpans).toHaveLength(1);
    const [span] = preview.cueSpans;
    const text =
      span?.location === 'system'
        ? preview.system
        : (preview.messages[span?.location ?? 0]?.content ?? '');
    expect(text.slice(span?.start, span?.end)).toBe(STRONG_LENIENCY_CUE.text);
    expect(preview.cue).toMatchObject({ label: expect.any(String) as string });
  });

  it('answers a bad condition and a missing item as errors naming the problem', async () => {
    const client = createLabClient(server.address);
    const badPlacement = await client.previewPrompt({
      suiteId: 'fixture-suite',
      itemId: 'fs-logs-01',
      condition: {
        cue: { kind: 'preset', preset: 'strong' },
        direction: 'severity',
        placement: 'footer',
      },
    });
    expect(badPlacement.ok).toBe(false);
    if (!badPlacement.ok) {
      expect(badPlacement.error.code).toBe('bad_request');
      expect(badPlacement.error.message).toContain('condition.placement');
    }
    const unknownPreset = await client.previewPrompt({
      suiteId: 'fixture-suite',
      itemId: 'fs-logs-01',
      condition: { cue: { kind: 'preset', preset: 'loud' }, direction: 'severity' },
    });
    expect(unknownPreset.ok).toBe(false);
    if (!unknownPreset.ok) expect(unknownPreset.error.message).toContain('loud');
    const missing = await client.previewPrompt({ suiteId: 'fixture-suite', itemId: 'nope' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.code).toBe('not_found');
  });
});
