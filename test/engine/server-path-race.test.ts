/**
 * The served engine reads the file it checked: a symlink swapped between the path check and the
 * open (the file's own link, or a folder above it) never reads a file outside the allowed
 * roots, a hard link inside an allowed folder is refused, and an archive with two entries of
 * one name is refused. A real `cuelab serve`; the swapping runs in another process, so the
 * race is real, and the request count is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../src/main/engine/suites/import/zip';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { makeTempDir } from '../helpers/temp-dir';
import { inspectHeader, writeZip } from '../helpers/zip-writer';

const fixture = join(__dirname, '..', 'fixtures', 'mini-suite.json');
const INSIDE = 'INSIDE-TASK-3c9a';
const OUTSIDE = 'OUTSIDE-SECRET-7f3e';
const requests = 300;

/** The mini suite with its first item's task replaced by `task`. */
function suiteWithTask(task: string): string {
  const suite = JSON.parse(readFileSync(fixture, 'utf8')) as { items: { task: string }[] };
  const first = suite.items[0];
  if (!first) throw new Error('the fixture has no item');
  first.task = task;
  return JSON.stringify(suite);
}

/** Swaps `link` between `targets` atomically (rename over it), as fast as it can. */
function swapper(pairs: { link: string; targets: [string, string] }[]): ChildProcess {
  const script = `
import os, sys, json
pairs = json.loads(sys.argv[1])
while True:
    for side in (0, 1):
        for pair in pairs:
            temporary = pair['link'] + '.next'
            try: os.unlink(temporary)
            except FileNotFoundError: pass
            os.symlink(pair['targets'][side], temporary)
            os.replace(temporary, pair['link'])
`;
  return spawn('python3', ['-c', script, JSON.stringify(pairs)], { stdio: 'ignore' });
}

describe('a served engine opens the file it checked', { timeout: 240_000 }, () => {
  const workspace = makeTempDir();
  const allowed = makeTempDir();
  const outside = makeTempDir();
  let serve: ServeProcess;
  let swapping: ChildProcess | undefined;

  beforeAll(async () => {
    writeFileSync(join(allowed.path, 'inside.json'), suiteWithTask(INSIDE));
    mkdirSync(join(allowed.path, 'inside-folder'));
    writeFileSync(join(allowed.path, 'inside-folder', 'suite.json'), suiteWithTask(INSIDE));
    writeFileSync(join(outside.path, 'secret.json'), suiteWithTask(OUTSIDE));
    mkdirSync(join(outside.path, 'outside-folder'));
    writeFileSync(join(outside.path, 'outside-folder', 'suite.json'), suiteWithTask(OUTSIDE));
    symlinkSync(join(allowed.path, 'inside.json'), join(allowed.path, 'link.json'));
    symlinkSync(join(allowed.path, 'inside-folder'), join(allowed.path, 'folder'));
    serve = await startServeProcess(workspace.path, ['--allow-path', allowed.path]);
  });
  afterAll(async () => {
    swapping?.kill('SIGKILL');
    await serve.stop();
    for (const dir of [workspace, allowed, outside]) dir.remove();
  });

  it('never reads outside the roots while a link flips between inside and outside', async () => {
    swapping = swapper([
      {
        link: join(allowed.path, 'link.json'),
        targets: [join(allowed.path, 'inside.json'), join(outside.path, 'secret.json')],
      },
      {
        link: join(allowed.path, 'folder'),
        targets: [join(allowed.path, 'inside-folder'), join(outside.path, 'outside-folder')],
      },
    ]);
    const paths = [join(allowed.path, 'link.json'), join(allowed.path, 'folder', 'suite.json')];
    let readInside = 0;
    let refused = 0;
    for (let index = 0; index < requests; index += 1) {
      const suitePath = paths[index % paths.length] ?? '';
      const answer = await serve.lab.previewItemPrompt({ suitePath, itemId: 'fs-logs-01' });
      const text = JSON.stringify(answer);
      expect(text).not.toContain(OUTSIDE);
      if (answer.ok) {
        expect(text).toContain(INSIDE);
        readInside += 1;
      } else refused += 1;
    }
    swapping.kill('SIGKILL');
    // Both outcomes happen: the race is real, and reads inside still work during it.
    expect(readInside).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('refuses a hard link inside an allowed folder to a file outside it', async () => {
    const hard = join(allowed.path, 'hard.json');
    linkSync(join(outside.path, 'secret.json'), hard);
    const answer = await serve.lab.previewItemPrompt({ suitePath: hard, itemId: 'fs-logs-01' });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.message).toContain('has 2 hard links');
    expect(JSON.stringify(answer)).not.toContain(OUTSIDE);
  });

  it('refuses an .eval with two entries of one name', () => {
    const sample = { name: 'samples/1_epoch_1.json', data: Buffer.from('{"id":1}') };
    const archive = writeZip([inspectHeader(), sample, { ...sample, data: Buffer.from('{}') }]);
    expect(() => readZip(archive)).toThrow(
      'the archive has two entries named "samples/1_epoch_1.json"; CueLab reads only archives whose entry names are unique',
    );
    const apart = writeZip([inspectHeader(), sample]);
    expect(readZip(apart).map((entry) => entry.name)).toEqual([
      'header.json',
      'samples/1_epoch_1.json',
    ]);
  });
});
