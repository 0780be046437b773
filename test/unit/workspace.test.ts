import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveWorkspace } from '../../src/main/engine/workspace';

const home = '/home/ada';

describe('workspace resolution', () => {
  it('prefers the flag, then CUELAB_WORKSPACE, then the platform default', () => {
    const env = { CUELAB_WORKSPACE: '/data/env-ws' };
    expect(resolveWorkspace({ flag: 'rel/ws', env, platform: 'linux', home })).toEqual({
      path: resolve('rel/ws'),
      source: 'flag',
    });
    expect(resolveWorkspace({ env, platform: 'linux', home })).toEqual({
      path: '/data/env-ws',
      source: 'environment',
    });
    expect(resolveWorkspace({ env: {}, platform: 'linux', home })).toEqual({
      path: join(home, '.local', 'share', 'cuelab'),
      source: 'default',
    });
  });

  it('uses each platform application-data folder', () => {
    expect(resolveWorkspace({ env: { XDG_DATA_HOME: '/xdg' }, platform: 'linux', home }).path).toBe(
      '/xdg/cuelab',
    );
    expect(resolveWorkspace({ env: {}, platform: 'darwin', home }).path).toBe(
      join(home, 'Library', 'Application Support', 'CueLab'),
    );
    expect(
      resolveWorkspace({
        env: { APPDATA: 'C:/Users/ada/AppData/Roaming' },
        platform: 'win32',
        home,
      }).path,
    ).toBe(join('C:/Users/ada/AppData/Roaming', 'CueLab'));
  });
});
