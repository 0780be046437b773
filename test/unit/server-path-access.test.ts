import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageUpload, writeUploadPieces } from '../../src/main/engine/suites';
import { isLoopbackPeer, pathRefusal } from '../../src/main/server/path-access';
import { makeTempDir } from '../helpers/temp-dir';

// A client that is not this machine may name staged uploads only.
describe('path access for a peer from another machine', () => {
  const workspace = makeTempDir();
  afterAll(() => workspace.remove());

  it('tells loopback peers from others', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopbackPeer)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['10.0.0.7', '::ffff:192.168.1.2', '', undefined].map(isLoopbackPeer)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('refuses the workspace to a remote peer but accepts its upload', async () => {
    const file = join(workspace.path, 'suite.json');
    writeFileSync(file, '{}');
    const access = { roots: [workspace.path] };
    expect(pathRefusal('importSuiteFile', { path: file }, access, true)).toBeNull();
    const refused = pathRefusal('importSuiteFile', { path: file }, access, false);
    expect(refused?.ok === false && refused.error.message).toContain('reads uploads only');
    const staged = await stageUpload(
      undefined,
      'drop',
      [{ path: 'suite.json', data: Buffer.from('{}').toString('base64'), append: false }],
      (upload, pieces) => Promise.resolve(writeUploadPieces(upload, pieces, () => undefined)),
    );
    const upload = join(staged.path, 'suite.json');
    expect(pathRefusal('importSuiteFile', { path: upload }, access, false)).toBeNull();
    expect(pathRefusal('importRuns', { path: staged.path }, access, false)).toBeNull();
  });

  it('wants a folder where the method takes one and a file where it reads one', () => {
    const access = { roots: [workspace.path] };
    const folder = pathRefusal('importSuiteFile', { path: workspace.path }, access, true);
    expect(folder?.ok === false && folder.error.message).toContain('is a folder');
    const file = join(workspace.path, 'tasks.json');
    writeFileSync(file, '{}');
    const tasks = pathRefusal('importRuns', { path: file, tasksDir: file }, access, true);
    expect(tasks?.ok === false && tasks.error.message).toContain('must be a folder');
  });
});
