/**
 * Staging dropped files on the engine (upload.ts): pieces land inside the upload's own folder,
 * large files arrive in appended pieces, and a stranger's path or a repeated file is refused.
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageUpload } from '../../src/main/engine/suites/import/upload';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('staging an upload', () => {
  it('writes pieces under the named folder and appends the later pieces of a file', () => {
    const first = stageUpload(undefined, 'my run', [
      { path: 'results/a/messages.json', data: base64('[{"role":'), append: false },
      { path: 'meta.json', data: base64('{}'), append: false },
    ]);
    roots.push(dirname(first.path));
    expect(first.path.endsWith(join('', 'my run'))).toBe(true);
    const second = stageUpload(first.uploadId, 'my run', [
      { path: 'results/a/messages.json', data: base64('"user"}]'), append: true },
    ]);
    expect(second).toMatchObject({ uploadId: first.uploadId, files: 2, bytes: 19 });
    expect(readFileSync(join(first.path, 'results/a/messages.json'), 'utf8')).toBe(
      '[{"role":"user"}]',
    );
  });

  it('refuses paths that leave the drop, files sent twice, and unknown uploads', () => {
    const { uploadId, path } = stageUpload(undefined, '../../etc', []);
    roots.push(dirname(path));
    expect(path.endsWith('etc')).toBe(true);
    for (const bad of ['../escape', '/etc/passwd', 'a//b', 'a/./b', 'a\\..\\b']) {
      expect(() => stageUpload(uploadId, 'x', [{ path: bad, data: '', append: false }])).toThrow(
        'not a relative path inside the drop',
      );
    }
    stageUpload(uploadId, 'x', [{ path: 'one.json', data: '', append: false }]);
    expect(() =>
      stageUpload(uploadId, 'x', [{ path: 'one.json', data: '', append: false }]),
    ).toThrow('one.json: sent twice.');
    expect(() =>
      stageUpload(uploadId, 'x', [{ path: 'two.json', data: '', append: true }]),
    ).toThrow('appends to a file not started');
    expect(() => stageUpload('00000000-0000-4000-8000-000000000000', 'x', [])).toThrow(/is gone/);
  });
});
