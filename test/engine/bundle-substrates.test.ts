/**
 * Bundles on the new substrates: a synthetic study on `mini-search` exported from one
 * workspace opens in another with each item's web snapshot inside it, so its reps replay there
 * offline and a new rep on the opened item searches the same web.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { runTool } from '../../src/main/engine/judge/tools';
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import { createStudy, selectItems } from '../../src/main/engine/runner/create-study';
import type { JudgeContext } from '../../src/main/engine/runner/execute';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { ensureSuite } from '../../src/main/engine/suites/builtin';
import { listSuiteItems } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { deferring } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('a study bundle on the web substrate', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  afterAll(() => {
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('carries each item’s web snapshot to the other workspace', async () => {
    const a = createEngine({ path: dirs.a.path, source: 'flag' });
    const b = createEngine({ path: dirs.b.path, source: 'flag' });
    try {
      const { items } = ensureSuite(engineStore(a), 'cuelab-mini');
      const spec = studySpecSchema.parse({
        name: 'search bundle',
        suite: 'cuelab-mini',
        items: { datasets: ['mini-search'], limit: 2 },
        judges: [{ id: 'sim', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
        reps: 1,
      });
      const studyId = createStudy(engineStore(a), spec, selectItems(spec, items));
      const judgeFor = (context: JudgeContext) => {
        const provider = createSyntheticProvider({
          item: context.item,
          persona: deferring,
          cue: syntheticCueOf(context.condition, context.readout),
          seed: context.condition.seed,
          repKey: context.repKey,
          readout: context.readout,
        });
        return { provider, providerKind: 'synthetic', simulated: true };
      };
      const deps = { ...workspaceRunnerDeps(engineStore(a), { env: {} }), judgeFor };
      const runner = new StudyRunner(deps, { concurrency: 2, studyIds: [studyId], pollMs: 10 });
      runner.start();
      await runner.whenIdle();
      await runner.stop();

      const file = join(dirs.files.path, 'search.json.gz');
      exportBundle(engineStore(a), studyId, file);
      const result = openBundle(engineStore(b), file);
      expect(result).toMatchObject({ studyId, itemsAdded: 2 });
      // The bundle's suite lands under its own id, never merged into the built-in one.
      expect(result.suiteId).toMatch(/^cuelab-mini~bundle-/);
      const opened = listSuiteItems(engineStore(b), result.suiteId ?? '');
      expect(opened).toHaveLength(2);
      for (const entry of opened) {
        const original = items.find((candidate) => candidate.id === entry.id);
        expect(entry.environment.web).toEqual(original?.environment.web);
        // The opened item serves the same web: the decisive page reads as it did.
        const decisive = entry.probes?.find((probe) => probe.decisive);
        const provisioned = await provisionEnvironment(entry.environment, entry);
        try {
          const outcome = await runTool('fetch_url', decisive?.input, {
            environment: provisioned.environment,
            trajectoryLines: [],
            limits: defaultToolLimits,
            offered: new Set(['fetch_url']),
          });
          expect(outcome.isError).toBe(false);
          expect(outcome.content).toContain(`URL: ${String(decisive?.input.url)}`);
        } finally {
          await provisioned.dispose();
        }
      }
      const calls = (engine: typeof a) =>
        engineStore(engine)
          .db.prepare(
            'SELECT c.name, c.input_json, c.output FROM judge_tool_calls c JOIN judge_reps r ' +
              'ON r.id = c.rep_id WHERE r.study_id = ? ORDER BY c.rep_id, c.seq',
          )
          .all(studyId);
      expect(calls(b)).toEqual(calls(a));
      expect(JSON.stringify(calls(b))).toContain('fetch_url');
    } finally {
      a.close();
      b.close();
    }
  });
});
