/**
 * A one-judge study of the fixture suite against the fake model server, for the tests of keys
 * a provider echoes (test/engine/redaction*.test.ts).
 */
import { join } from 'node:path';
import type { Engine } from '../../src/main/engine/engine';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { engineStore } from '../../src/main/engine/engine-store';

/** Imports the fixture suite and creates a study whose Anthropic judge talks to `url`. */
export async function createEchoStudy(engine: Engine, url: string): Promise<string> {
  saveSuite(
    engineStore(engine),
    loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
    'imported',
  );
  const { studyId } = await engine.handlers.createStudy({
    spec: {
      name: 'echo',
      suite: 'fixture-suite',
      judges: [{ id: 'j', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: url }],
      reps: 1,
    },
    trustedEndpoints: [url],
  });
  return studyId;
}
