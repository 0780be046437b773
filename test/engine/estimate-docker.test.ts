import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { loadStudySpec } from '../../src/main/engine/runner/spec-file';
import { ensureSuite } from '../../src/main/engine/suites';
import { makeTempDir } from '../helpers/temp-dir';

// Before launch, the estimate says when Docker is needed and absent, how many items need it,
// and what happens if launched anyway; reps the synthetic judge decides from the trajectory
// alone need no container and raise no such warning.
describe('the estimate without Docker', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const engine = createEngine({ path: join(dir.path, 'ws'), source: 'flag' });
  afterAll(() => engine.close());
  const store = engineStore(engine);
  const demo = loadStudySpec(join(__dirname, '..', '..', 'resources', 'studies', 'demo.json'));
  const context = {
    env: {},
    dockerAvailable: false,
    dockerFix: 'start dockerd',
    baseImagePresent: false,
  };

  it('names the items that need Docker and the pause a launch would meet', () => {
    const { items } = ensureSuite(store, 'cuelab-mini');
    const shellIds = items.filter((item) => item.environment.shell).map((item) => item.id);
    const webIds = items.filter((item) => !item.environment.shell).map((item) => item.id);
    const spec = { ...demo, items: { ids: [...shellIds.slice(0, 3), ...webIds.slice(0, 2)] } };
    const warning = estimateStudy(store, spec, items, context).warnings.find(
      (entry) => entry.code === 'docker_down',
    );
    expect(warning?.message).toContain('3 of 5 items need it');
    expect(warning?.message).toContain(
      'the study pauses at their first rep ("Docker is not running")',
    );
    expect(warning?.fix).toBe('start dockerd');
    const webOnly = { ...demo, items: { ids: webIds.slice(0, 2) } };
    expect(
      estimateStudy(store, webOnly, items, context).warnings.map((entry) => entry.code),
    ).not.toContain('docker_down');
  });
});
