import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/engine/store/database';
import {
  listDockerHosts,
  removeDockerHost,
  saveDockerHost,
} from '../../src/main/engine/store/docker-hosts';
import { makeTempDir } from '../helpers/temp-dir';

const dirs: { remove: () => void }[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

function freshStore() {
  const dir = makeTempDir('cuelab-hosts-');
  dirs.push(dir);
  return openStore(join(dir.path, 'cuelab.sqlite'));
}

describe('workspace Docker hosts', () => {
  it('keeps hosts across reopen, local first, and lets local change only its limit', () => {
    const store = freshStore();
    expect(listDockerHosts(store).map((host) => host.id)).toEqual(['local']);
    saveDockerHost(store, { id: 'gpu-box', url: 'ssh://lab@gpu-box', maxContainers: 16 });
    saveDockerHost(store, { id: 'local', url: 'local', maxContainers: 3 });
    const path = store.path;
    store.close();
    const reopened = openStore(path);
    expect(listDockerHosts(reopened)).toEqual([
      { id: 'local', url: 'local', maxContainers: 3, enabled: true },
      { id: 'gpu-box', url: 'ssh://lab@gpu-box', maxContainers: 16, enabled: true },
    ]);
    expect(() =>
      saveDockerHost(reopened, { id: 'local', url: 'tcp://x:1', maxContainers: 1 }),
    ).toThrow(/the id "local" is the workstation's own engine/);
    expect(() => saveDockerHost(reopened, { id: 'x', url: 'ftp://x', maxContainers: 1 })).toThrow(
      /Docker host: url: a Docker host is local/,
    );
    expect(removeDockerHost(reopened, 'gpu-box')).toBe(true);
    expect(removeDockerHost(reopened, 'gpu-box')).toBe(false);
    expect(listDockerHosts(reopened).map((host) => host.id)).toEqual(['local']);
    reopened.close();
  });

  it('names a hand-edited row that no longer fits instead of using it', () => {
    const store = freshStore();
    store.db
      .prepare('INSERT INTO docker_hosts (id, config_json, added_at) VALUES (?, ?, ?)')
      .run('broken', JSON.stringify({ id: 'broken', url: 'tcp://x', maxContainers: 1 }), 'now');
    expect(() => listDockerHosts(store)).toThrow(
      /Docker host "broken" .* cuelab env hosts remove broken/,
    );
    store.close();
  });
});
