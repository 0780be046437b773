import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { importResultsFile } from '../../src/main/engine/reports/import';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// A small gzip file that inflates to a gigabyte is refused, memory bounded.

/** About 1 MB of gzip that inflates to about 1 GiB: 1024 gzip members of 1 MiB of `fill`. */
function gzipBomb(head: string, fill: string): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024, fill), { level: 9 });
  return Buffer.concat([gzipSync(head), ...Array.from({ length: 1024 }, () => member)]);
}

describe('decompression limits', () => {
  const dir = makeTempDir();
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine({ path: dir.path, source: 'flag' });
  });
  afterAll(() => {
    engine.close();
    dir.remove();
  });

  const studies = () =>
    engineStore(engine).db.prepare('SELECT COUNT(*) FROM studies').pluck().get();

  it('refuses a bundle gzip bomb with a clear error and bounded memory', () => {
    const bomb = gzipBomb('{"format":"cuelab-study-bundle","studyId":"', 'a');
    expect(bomb.length).toBeLessThan(1.5 * 1024 * 1024);
    const file = join(dir.path, 'bomb.json.gz');
    writeFileSync(file, bomb);
    const before = process.memoryUsage().rss;
    expect(() => openBundle(engineStore(engine), file)).toThrow(
      /larger than 256 MiB once decompressed; refusing it/,
    );
    // Inflating it all would take over 1 GiB; the limit stops at 256 MiB.
    expect(process.memoryUsage().rss - before).toBeLessThan(700 * 1024 * 1024);
    expect(studies()).toBe(0);
  });

  it('refuses a results gzip bomb the same way', () => {
    const file = join(dir.path, 'results.csv.gz');
    writeFileSync(file, gzipBomb('item_id,dataset,judge,condition,rep,verdict\n', '\n'));
    expect(() => importResultsFile(engineStore(engine), file)).toThrow(/larger than 256 MiB/);
    expect(studies()).toBe(0);
  });

  it('still imports an honest gzipped results file', () => {
    const file = join(dir.path, 'honest.csv.gz');
    const rows = ['item_id,dataset,judge,condition,cue_direction,rep,verdict,gold'];
    for (const condition of ['uncued', 'strong'])
      rows.push(`i1,d,j,${condition},${condition === 'uncued' ? '' : 'severity'},1,pass,pass`);
    writeFileSync(file, gzipSync(rows.join('\n')));
    expect(importResultsFile(engineStore(engine), file)).toMatchObject({ reps: 2, format: 'csv' });
  });
});
