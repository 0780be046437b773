/**
 * The zip reader's limits on a stranger's archive, on archives written byte by byte: entries
 * that share data, a budget across the whole archive, declared sizes never trusted, and an
 * Inspect log read sample by sample through the real importer on real files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importRuns } from '../../src/main/engine/suites/import';
import { ArchiveRefused, readZip } from '../../src/main/engine/suites/import/zip';
import { makeTempDir } from '../helpers/temp-dir';
import { bigSample, inspectHeader, writeZip, type ZipFile } from '../helpers/zip-writer';

const mebibyte = 1024 * 1024;
const dir = makeTempDir();
afterAll(() => dir.remove());

function sample(index: number, text = `task ${index}`): ZipFile {
  return {
    name: `samples/${index}_epoch_1.json`,
    data: Buffer.from(
      JSON.stringify({
        id: index,
        messages: [
          { role: 'user', content: text },
          { role: 'assistant', content: 'done' },
        ],
        scores: { match: { value: 'C' } },
      }),
    ),
  };
}

function readAll(archive: Buffer, limits = {}): number {
  return readZip(archive, limits).reduce((sum, entry) => sum + entry.read().length, 0);
}

describe('readZip on hostile archives', () => {
  it('refuses two names for one entry before inflating anything', () => {
    const archive = writeZip(
      [sample(1)],
      [
        { name: 'samples/1_epoch_1.json', file: 0 },
        { name: 'samples/2_epoch_1.json', file: 0 },
      ],
    );
    expect(() => readZip(archive)).toThrow(ArchiveRefused);
    expect(() => readZip(archive)).toThrow(
      /samples\/1_epoch_1\.json and samples\/2_epoch_1\.json share data/,
    );
  });

  it('keeps one budget across the archive and names it', () => {
    // Four apart entries of 1 MiB each: honest in shape, too much together for a 3 MiB budget.
    const files = [1, 2, 3, 4].map((index) => bigSample(`samples/${index}.json`, mebibyte));
    const archive = writeZip(files);
    expect(readAll(archive, { maxTotalBytes: 4 * mebibyte })).toBe(4 * mebibyte);
    expect(() => readAll(archive, { maxTotalBytes: 3 * mebibyte })).toThrow(
      /inflates to more than 3 MiB in all \(at samples\/4\.json\)/,
    );
  });

  it('refuses an entry over the per-entry limit and more entries than allowed', () => {
    const archive = writeZip([bigSample('samples/1.json', 2 * mebibyte)]);
    expect(() => readAll(archive, { maxEntryBytes: mebibyte })).toThrow(
      /samples\/1\.json is 2 MiB once inflated; CueLab reads at most 1 MiB per entry/,
    );
    const many = writeZip([1, 2, 3].map((index) => sample(index)));
    expect(() => readZip(many, { maxEntries: 2 })).toThrow(/has 3 entries; CueLab reads at most 2/);
  });

  it('never trusts a declared size: larger or smaller than the data is refused', () => {
    const claimsLess = writeZip([{ ...bigSample('samples/1.json', mebibyte), declaredSize: 1000 }]);
    expect(() => readAll(claimsLess)).toThrow(/holds more than the 1000 bytes it declares/);
    const claimsMore = writeZip([{ ...sample(1), declaredSize: 50 * mebibyte }]);
    expect(() => readAll(claimsMore)).toThrow(/holds \d+ bytes but declares 52428800/);
  });
});

describe('an Inspect log through the importer', () => {
  it('imports apart samples and refuses a shared-data log whole, naming the limit', () => {
    const honest = join(dir.path, 'honest.eval');
    writeFileSync(honest, writeZip([inspectHeader('honest'), sample(1), sample(2)]));
    const good = importRuns({ path: honest, format: 'inspect' });
    expect(good.imported.map((item) => item.id)).toEqual(['honest-1', 'honest-2']);

    const shared = join(dir.path, 'shared.eval');
    writeFileSync(
      shared,
      writeZip(
        [inspectHeader('shared'), sample(1)],
        [
          { name: 'header.json', file: 0 },
          { name: 'samples/1_epoch_1.json', file: 1 },
          { name: 'samples/2_epoch_1.json', file: 1 },
        ],
      ),
    );
    expect(() => importRuns({ path: shared, format: 'inspect' })).toThrow(
      /Nothing in .* could be imported:\n {2}shared\.eval: refused: entries .* share data/,
    );
  });

  it('refuses a log past the whole-archive budget without keeping a partial import', () => {
    // Five apart 60 MiB samples: each fits the 64 MiB sample limit, together they pass the
    // 256 MiB archive budget; they are read one at a time, so memory never holds them all.
    const files = [1, 2, 3, 4, 5].map((index) =>
      bigSample(`samples/${index}_epoch_1.json`, 60 * mebibyte),
    );
    const path = join(dir.path, 'budget.eval');
    writeFileSync(path, writeZip([inspectHeader('budget'), ...files]));
    const before = process.memoryUsage().rss;
    expect(() => importRuns({ path, format: 'inspect' })).toThrow(
      /budget\.eval: refused: the archive inflates to more than 256 MiB in all \(at samples\/5_epoch_1\.json\)/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(700 * mebibyte);
  });
});
