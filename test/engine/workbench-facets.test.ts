/**
 * The values the workbench's filters can take are kept beside the workspace database
 * (cache/workbench-facets/) when a study's tables are drawn, and a first page read on a fresh
 * connection takes them from there while the study's rows and labels are unchanged. A real
 * synthetic study run by the real runner, a real SQLite file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePath } from '../../src/main/engine/engine';
import { findFlippedReps } from '../../src/main/engine/metajudge';
import { keepStudyTablesCurrent, workbenchPage } from '../../src/main/engine/reports';
import { openStore, type Store } from '../../src/main/engine/store';
import { saveLabels } from '../../src/main/engine/store/faces/labels';
import { repFacets } from '../../src/main/engine/store/faces/reps';
import { runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

interface FacetsFile {
  key: string;
  facets: { judges: string[]; datasets: string[]; conditions: string[]; mechanisms: string[] };
}

describe('the persisted workbench facets', () => {
  const dir = makeTempDir();
  const database = databasePath(dir.path);
  const facetsDir = join(dir.path, 'cache', 'workbench-facets');
  let store: Store;
  let studyId: string;

  const facetsFile = () => {
    const files = readdirSync(facetsDir).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(1);
    return join(facetsDir, files[0] as string);
  };
  const read = () => JSON.parse(readFileSync(facetsFile(), 'utf8')) as FacetsFile;
  /** A first page on a connection of its own, as the reads worker serves it after a start. */
  const firstPage = () => {
    const fresh = openStore(database, { alreadyChecked: true });
    try {
      return workbenchPage(fresh, { studyId });
    } finally {
      fresh.close();
    }
  };

  beforeAll(async () => {
    store = openStore(database);
    studyId = await runStudy(store);
    const [flip] = findFlippedReps(store, studyId);
    saveLabels(store, [{ repId: flip?.repId as string, source: 'diff', label: 'over_trust' }]);
  });
  afterAll(() => {
    if (store.db.open) store.close();
    dir.remove();
  });

  it('are written when the study’s tables are drawn, with what the store holds', async () => {
    await keepStudyTablesCurrent(store, studyId);
    const written = read();
    expect(written.facets).toEqual({ ...repFacets(store, studyId), mechanisms: ['over_trust'] });
    expect(written.facets.judges.length).toBeGreaterThan(0);
    expect(written.facets.conditions.length).toBeGreaterThan(1);
    expect(firstPage().facets).toEqual(written.facets);
  });

  it('are read from the file on a first page while the study is unchanged', () => {
    const written = read();
    const planted = { ...written.facets, datasets: ['planted-dataset'] };
    writeFileSync(facetsFile(), JSON.stringify({ key: written.key, facets: planted }));
    expect(firstPage().facets).toEqual(planted);
    writeFileSync(facetsFile(), JSON.stringify(written));
  });

  it('are found again once a label moves the stamp, and after damage or a wrong shape', () => {
    const written = read();
    const [, second] = findFlippedReps(store, studyId);
    saveLabels(store, [{ repId: second?.repId as string, source: 'diff', label: 'hallucination' }]);
    const moved = firstPage().facets;
    expect(moved.mechanisms).toEqual(['hallucination', 'over_trust']);
    expect(read().key).not.toBe(written.key);
    expect(read().facets).toEqual(moved);

    const current = read();
    writeFileSync(facetsFile(), '{"key": "not json');
    expect(firstPage().facets).toEqual(moved);
    writeFileSync(facetsFile(), JSON.stringify({ key: current.key, facets: { judges: 7 } }));
    expect(firstPage().facets).toEqual(moved);
    expect(read()).toEqual(current);
  });
});
