/**
 * A study's whole flip list is kept beside the workspace database (cache/flip-lists/) once
 * found, and read back while the study, its majorities and its labels are unchanged: the
 * workbench's first "flipped" filter after a start reads that file instead of finding every
 * flip of the study. A real synthetic study run by the real runner (three harmful flips).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api';
import { createEngine, databasePath } from '../../src/main/engine/engine';
import { findFlippedReps, type FlippedRep } from '../../src/main/engine/metajudge';
import { openStore, type Store } from '../../src/main/engine/store';
import type { LabResponse } from '../../src/shared/lab-api';
import { saveLabels } from '../../src/main/engine/store/faces/labels';
import { runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

describe('the persisted flip list', () => {
  const dir = makeTempDir();
  const database = databasePath(dir.path);
  const listDir = join(dir.path, 'cache', 'flip-lists');
  let store: Store;
  let studyId: string;
  let found: FlippedRep[];

  const listFile = (part = 'flips') => {
    const files = readdirSync(listDir).filter((name) => name.endsWith(`.${part}.json`));
    expect(files).toHaveLength(1);
    return join(listDir, files[0] as string);
  };

  beforeAll(async () => {
    store = openStore(database);
    studyId = await runStudy(store);
  });
  afterAll(() => {
    if (store.db.open) store.close();
    dir.remove();
  });

  it('is written when a study’s flips are found, and read back unchanged', () => {
    found = findFlippedReps(store, studyId);
    expect(found.map((flip) => flip.kind)).toEqual(['harmful', 'harmful', 'harmful']);
    const written = JSON.parse(readFileSync(listFile(), 'utf8')) as { flips: FlippedRep[] };
    expect(written.flips).toEqual(found);
    // Beside it, each flip's rep and kind alone: what the workbench's flipped filter reads.
    const kinds = JSON.parse(readFileSync(listFile('kinds'), 'utf8')) as { flips: unknown };
    expect(kinds.flips).toEqual(found.map((flip) => [flip.repId, flip.kind]));
    expect(findFlippedReps(store, studyId)).toEqual(found);
    // One item's flips are found, not kept: they are the study's, in the same order.
    expect(findFlippedReps(store, studyId, { itemId: found[0]?.itemId as string })).toEqual(found);
  });

  it('serves a current list from the file instead of finding the flips again', () => {
    const file = listFile();
    const held = JSON.parse(readFileSync(file, 'utf8')) as { key: string; flips: FlippedRep[] };
    writeFileSync(file, JSON.stringify({ key: held.key, flips: held.flips.slice(0, 1) }));
    expect(findFlippedReps(store, studyId)).toEqual(found.slice(0, 1));
    writeFileSync(file, JSON.stringify(held));
  });

  it('finds the flips again once a label moves the study’s stamp, and after damage', () => {
    const file = listFile();
    const held = JSON.parse(readFileSync(file, 'utf8')) as { key: string; flips: FlippedRep[] };
    writeFileSync(file, JSON.stringify({ key: held.key, flips: [] }));
    saveLabels(store, [{ repId: found[0]?.repId as string, source: 'diff', label: 'over_trust' }]);
    expect(findFlippedReps(store, studyId)).toEqual(found);
    writeFileSync(file, '{"key": "not json');
    expect(findFlippedReps(store, studyId)).toEqual(found);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ flips: found });
  });

  it('gives the workbench the same flipped page from the kept list after a restart', async () => {
    store.close();
    const first = createEngine({ path: dir.path, source: 'flag' });
    const query = async (engine: ReturnType<typeof createEngine>) => {
      const result = await dispatchLabCall(engine.handlers, 'queryReps', {
        studyId,
        flipped: 'harmful',
      });
      if (!result.ok) throw new Error(result.error.message);
      return result.value as LabResponse<'queryReps'>;
    };
    const before = await query(first);
    first.close();
    const again = createEngine({ path: dir.path, source: 'flag' });
    const after = await query(again);
    expect(after.rows).toEqual(before.rows);
    expect(after.rows.map((row) => row.repId).sort()).toEqual(
      found.map((flip) => flip.repId).sort(),
    );
    expect(after.rows.find((row) => row.repId === found[0]?.repId)?.mechanism).toBe('over_trust');
    again.close();
  });
});
