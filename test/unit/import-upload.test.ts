/**
 * Staging dropped files on the engine (upload.ts, upload-write.ts): pieces land inside the
 * upload's own folder, large files arrive in appended pieces, a stranger's path or a repeated
 * file is refused, and an upload whose writing failed (cancelled) is removed. The pieces are
 * written here directly; the engine writes them on its files worker (test/engine).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/main/engine/errors';
import {
  stageUpload as stage,
  type UploadWriter,
} from '../../src/main/engine/suites/import/upload';
import {
  writeUploadPieces,
  type UploadPiece,
} from '../../src/main/engine/suites/import/upload-write';

const writeHere: UploadWriter = (upload, pieces) =>
  Promise.resolve(writeUploadPieces(upload, pieces, () => undefined));
const stageUpload = (uploadId: string | undefined, name: string, pieces: UploadPiece[]) =>
  stage(uploadId, name, pieces, writeHere);

const base64 = (text: string) => Buffer.from(text).toString('base64');
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('staging an upload', () => {
  it('writes pieces under the named folder and appends the later pieces of a file', async () => {
    const first = await stageUpload(undefined, 'my run', [
      { path: 'results/a/messages.json', data: base64('[{"role":'), append: false },
      { path: 'meta.json', data: base64('{}'), append: false },
    ]);
    roots.push(dirname(first.path));
    expect(first.path.endsWith(join('', 'my run'))).toBe(true);
    const second = await stageUpload(first.uploadId, 'my run', [
      { path: 'results/a/messages.json', data: base64('"user"}]'), append: true },
    ]);
    expect(second).toMatchObject({ uploadId: first.uploadId, files: 2, bytes: 19 });
    expect(readFileSync(join(first.path, 'results/a/messages.json'), 'utf8')).toBe(
      '[{"role":"user"}]',
    );
  });

  it('refuses paths that leave the drop, files sent twice, and unknown uploads', async () => {
    const { uploadId, path } = await stageUpload(undefined, '../../etc', []);
    roots.push(dirname(path));
    expect(path.endsWith('etc')).toBe(true);
    for (const bad of ['../escape', '/etc/passwd', 'a//b', 'a/./b', 'a\\..\\b']) {
      await expect(
        stageUpload(uploadId, 'x', [{ path: bad, data: '', append: false }]),
      ).rejects.toThrow('not a relative path inside the drop');
    }
    await stageUpload(uploadId, 'x', [{ path: 'one.json', data: '', append: false }]);
    await expect(
      stageUpload(uploadId, 'x', [{ path: 'one.json', data: '', append: false }]),
    ).rejects.toThrow('one.json: sent twice.');
    await expect(
      stageUpload(uploadId, 'x', [{ path: 'two.json', data: '', append: true }]),
    ).rejects.toThrow('appends to a file not started');
    await expect(stageUpload('00000000-0000-4000-8000-000000000000', 'x', [])).rejects.toThrow(
      /is gone/,
    );
  });

  it('keeps the pieces before a refused one, and counts them', async () => {
    const { uploadId, path } = await stageUpload(undefined, 'partly', []);
    roots.push(dirname(path));
    await expect(
      stageUpload(uploadId, 'partly', [
        { path: 'a.json', data: base64('{}'), append: false },
        { path: '../b.json', data: base64('{}'), append: false },
      ]),
    ).rejects.toThrow('../b.json: not a relative path inside the drop.');
    const next = await stageUpload(uploadId, 'partly', [
      { path: 'c.json', data: base64('{}'), append: false },
    ]);
    expect(next).toMatchObject({ files: 2, bytes: 4 });
    expect(readFileSync(join(path, 'a.json'), 'utf8')).toBe('{}');
  });

  it('removes an upload whose writing failed (cancelled): what it holds is unknown', async () => {
    const { uploadId, path } = await stageUpload(undefined, 'gone', [
      { path: 'a.json', data: base64('{}'), append: false },
    ]);
    const cancelled = stage(uploadId, 'gone', [], () =>
      Promise.reject(new EngineError('cancelled', 'Staging the upload was cancelled.')),
    );
    await expect(cancelled).rejects.toThrow('Staging the upload was cancelled.');
    expect(existsSync(path)).toBe(false);
    await expect(stageUpload(uploadId, 'gone', [])).rejects.toThrow(/is gone/);
  });
});
