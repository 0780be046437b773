import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specNeedsDocker } from '../../src/main/engine/environments';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { recordImageBuild } from '../../src/main/engine/store/faces/machine';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import type { SuiteItem } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

// The time estimate counts the item images a study must still build here: a default per
// build until this machine has measured some of that substrate, then their median; an item
// whose image was built (as it is now) costs nothing more. Real SQLite, the mini fixture.
describe('the time estimate counts item image builds', () => {
  const dir = makeTempDir();
  let store: Store;
  let items: SuiteItem[];
  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(
      store,
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    // Each item as a shell item: its judge gets a container built from its snapshot.
    items = listSuiteItems(store, 'fixture-suite').map((item) => ({
      ...item,
      environment: { ...item.environment, shell: true },
    }));
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });
  const spec = studySpecSchema.parse({
    name: 'build estimate',
    suite: 'fixture-suite',
    judges: [
      { id: 'j', provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' },
    ],
    reps: 1,
    arms: { cues: [] },
    concurrency: { total: 1, containers: 1 },
  });
  const context = { env: {}, dockerAvailable: true, baseImagePresent: true };
  const estimate = () => estimateStudy(store, spec, items, context);

  it('adds a default per image, then the measured median, then nothing once built', () => {
    const docker = items.filter((item) => specNeedsDocker(item.environment));
    expect(docker.length).toBeGreaterThan(1);
    const repSeconds = items.length * 90;
    const none = estimate();
    expect(none.estimatedSeconds).toBe(repSeconds + docker.length * 60);
    expect(none.secondsBasis).toMatch(/item images to build first: .*at a default 60 s/);
    expect(none.secondsMeasured).toBe(false);

    // Three builds of another item's copy measured here: 10, 20 and 400 s (median 20 s).
    const substrate = docker[0]!.environment.substrate;
    for (const [index, seconds] of [10, 20, 400].entries())
      recordImageBuild(
        store,
        { id: `other-${index}`, environment: docker[0]!.environment },
        seconds,
      );
    const sameSubstrate = docker.filter((item) => item.environment.substrate === substrate);
    const measured = estimate();
    expect(measured.secondsBasis).toContain(
      `${sameSubstrate.length} ${substrate} at the median 20 s of 3 built here`,
    );

    // Every image built: only the reps are left.
    for (const item of docker) recordImageBuild(store, item, 30);
    const built = estimate();
    expect(built.estimatedSeconds).toBe(repSeconds);
    expect(built.secondsBasis).not.toContain('item images');
  });
});
