/**
 * App. B: an error-attribution readout has no pass/fail majority for `opposite` to oppose; the
 * cue asserts that the taxonomy's categories are present, i.e. the severity direction. Under the
 * default policy such a study must still get its cued reps, and the estimate must say why.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { ERROR_ATTRIBUTION_DIRECTION_NOTE } from '../../src/main/engine/runner/scheduling';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';

describe('the direction of error-attribution studies (App. B)', () => {
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

  const spec = (dimension: string) =>
    studySpecSchema.parse({
      name: `direction ${dimension}`,
      suite: 'fixture-suite',
      items: { ids: ['fs-logs-01'] },
      judges: [
        { id: 'syn', provider: 'synthetic', model: 'synthetic', persona: 'robust-frontier' },
      ],
      dimension,
      reps: 3,
    });
  const cuedJobs = (studyId: string) =>
    store.db
      .prepare(
        `SELECT direction, count(*) AS n FROM jobs WHERE study_id = ? AND condition_key != 'uncued'
          GROUP BY direction`,
      )
      .all(studyId) as { direction: string; n: number }[];
  const context = { env: {}, dockerAvailable: true, baseImagePresent: true };

  it('queues severity cued reps at once under the default `opposite` policy, and says so', () => {
    const attribution = spec('error_attribution');
    expect(attribution.direction).toBe('opposite');
    const studyId = createStudy(store, attribution, listSuiteItems(store, 'fixture-suite'));
    expect(cuedJobs(studyId)).toEqual([{ direction: 'severity', n: 3 }]);
    const estimate = estimateStudy(
      store,
      attribution,
      listSuiteItems(store, 'fixture-suite'),
      context,
    );
    expect(estimate.cuedReps).toBe(3);
    expect(estimate.warnings).toContainEqual({
      code: 'direction_chosen',
      message: ERROR_ATTRIBUTION_DIRECTION_NOTE,
    });
  });

  it('leaves a pass/fail study to wait for its uncued majority (§3.1)', () => {
    const binary = spec('task_success');
    const studyId = createStudy(store, binary, listSuiteItems(store, 'fixture-suite'));
    expect(cuedJobs(studyId)).toEqual([]);
    const estimate = estimateStudy(store, binary, listSuiteItems(store, 'fixture-suite'), context);
    expect(estimate.warnings.map((warning) => warning.code)).not.toContain('direction_chosen');
  });
});
