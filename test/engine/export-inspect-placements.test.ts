/**
 * An Inspect export of a study with two placements (a real synthetic study on a real SQLite
 * workspace): one log per judge × condition × placement, each sample (id, epoch) once per log,
 * and every `.eval` archive holding each entry name once, as Inspect's reader needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportInspectLogs } from '../../src/main/engine/export/inspect-log';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { readZip } from '../../src/main/engine/suites/import/zip';
import { studySpecSchema } from '../../src/shared/study-spec';
import { deferring, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { useTempStore } from '../helpers/temp-store';

interface Log {
  eval: { metadata: { judge: string; condition: string } };
  samples: { id: string; epoch: number }[];
}

describe('an Inspect export of a study with two placements', () => {
  const workspace = useTempStore();

  it('writes a log per placement, with unique samples and unique archive entries', async () => {
    const file = suite();
    saveSuite(workspace.store(), file, 'imported');
    const spec = studySpecSchema.parse({
      name: 'two placements',
      suite: file.id,
      judges: [{ id: 'only', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
      reps: 2,
      arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system', 'user'] },
    });
    const studyId = await runSyntheticStudy(workspace.store(), spec, file.items, deferring);
    const json = exportInspectLogs(workspace.store(), studyId, join(workspace.path, 'json'));
    const logs = json.map((entry) => JSON.parse(readFileSync(entry.file, 'utf8')) as Log);
    const conditions = logs.map((log) => log.eval.metadata.condition);
    // Each cued condition is its own log per placement; none is two placements merged.
    expect(new Set(conditions).size).toBe(logs.length);
    for (const placement of ['system', 'user']) {
      expect(conditions.filter((condition) => condition.endsWith(`+${placement}`)).length).toBe(
        conditions.filter((condition) => condition !== 'uncued').length / 2,
      );
    }
    for (const log of logs) {
      const keys = log.samples.map((sample) => `${sample.id}#${sample.epoch}`);
      expect(new Set(keys).size, log.eval.metadata.condition).toBe(keys.length);
      expect(keys.sort()).toEqual(['invoices#1', 'invoices#2']);
    }

    const evals = exportInspectLogs(
      workspace.store(),
      studyId,
      join(workspace.path, 'eval'),
      'eval',
    );
    expect(evals).toHaveLength(logs.length);
    for (const written of evals) {
      const names = readZip(readFileSync(written.file)).map((entry) => entry.name);
      expect(new Set(names).size, written.file).toBe(names.length);
      expect(names.filter((name) => name.startsWith('samples/')).sort()).toEqual([
        'samples/invoices_epoch_1.json',
        'samples/invoices_epoch_2.json',
      ]);
    }
  });
});
