/**
 * A study of the mini suite (test/fixtures/mini-suite.json) whose one judge is the Anthropic SDK
 * against the local fake model server, and a real runner that runs its queue to the end (the
 * server's URL trusted as the user's custom endpoint).
 */
import { join } from 'node:path';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import type { Store } from '../../src/main/engine/store/database';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema, type StudySpecInput } from '../../src/shared/study-spec';

/** Imports the mini suite and creates a study of it (3 reps unless `overrides` say otherwise). */
export function createMiniSuiteStudy(
  store: Store,
  serverUrl: string,
  overrides: Partial<StudySpecInput> = {},
): string {
  saveSuite(store, loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')), 'imported');
  const fake = {
    id: 'fake',
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    baseUrl: serverUrl,
  };
  const spec = studySpecSchema.parse({
    name: 'mini suite study',
    suite: 'fixture-suite',
    judges: [fake],
    reps: 3,
    ...overrides,
  });
  return createStudy(store, spec, listSuiteItems(store, 'fixture-suite'));
}

/** Runs `studyId` until the runner is idle, then stops it. */
export async function runWithFakeServer(
  store: Store,
  studyId: string,
  serverUrl: string,
): Promise<void> {
  const runner = new StudyRunner(
    workspaceRunnerDeps(store, {
      env: { ANTHROPIC_API_KEY: 'test' },
      trust: { endpoints: [serverUrl], keyEnvNames: [] },
    }),
    { concurrency: 3, studyIds: [studyId], pollMs: 20 },
  );
  runner.start();
  await runner.whenIdle();
  await runner.stop();
}
