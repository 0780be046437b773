/**
 * The run importer (the Import screen's path) meets CueLab's own suite files: it reads them with
 * the parser `cuelab suite import FILE` uses, typed as a path or dropped (a folder holding one),
 * and a broken one fails with the same `FILE:LINE: field: problem` lines the CLI prints.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSuite } from '../../src/main/engine/suites/load';
import { importRuns } from '../../src/main/engine/suites/import';
import { makeTempDir } from '../helpers/temp-dir';

const shipped = join(__dirname, '..', '..', 'resources', 'suites', 'cuelab-mini.json');

const broken =
  '{\n  "id": "broken",\n  "name": "Broken",\n  "items": [\n    {\n      "id": "a",\n' +
  '      "dataset": "d",\n      "substrate": "moon",\n      "task": "t",\n' +
  '      "trajectory": [{ "role": "user", "content": "t" }]\n    }\n  ]\n}\n';

describe('CueLab suite files through the run importer', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => dir.remove());

  it('reads a suite file typed as a path, item for item as the CLI parser does', () => {
    const outcome = importRuns({ path: shipped, format: 'auto' });
    // The same text through the CLI's parser gives the same suite.
    const expected = parseSuite(readFileSync(shipped, 'utf8'), shipped);
    expect(outcome.suite).toEqual(expected);
    expect(new Set(outcome.imported.map((entry) => entry.format))).toEqual(new Set(['cuelab']));
    expect(outcome.imported[0]?.limits.network).toBe(false);
  });

  it('reads a dropped folder holding one suite file', () => {
    cpSync(shipped, join(dir.path, 'cuelab-mini.json'));
    expect(importRuns({ path: dir.path, format: 'auto' }).suite.id).toBe('cuelab-mini');
  });

  it('names FILE:LINE of each problem of a broken suite file', () => {
    const path = join(dir.path, 'broken.json');
    writeFileSync(path, broken);
    expect(() => importRuns({ path, format: 'auto' })).toThrow(
      `${path}:8: items.0.substrate: Invalid option`,
    );
    expect(() => parseSuite(broken, 'suite.json')).toThrow('suite.json:8: items.0.substrate');
  });
});
