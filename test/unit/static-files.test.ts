import { describe, expect, it } from 'vitest';
import { resolveStaticPath } from '../../src/main/server/static-files';

describe('static file paths', () => {
  const root = '/srv/renderer';

  it('maps URL paths inside the renderer folder', () => {
    expect(resolveStaticPath(root, '/assets/index-1a2b.js')).toBe(
      '/srv/renderer/assets/index-1a2b.js',
    );
    expect(resolveStaticPath(root, '/')).toBe('/srv/renderer/');
  });

  it('refuses paths that climb out, encoded or not, and NUL bytes', () => {
    expect(resolveStaticPath(root, '/../secret.txt')).toBeNull();
    expect(resolveStaticPath(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveStaticPath(root, '/assets/..%2f..%2fsecret')).toBeNull();
    expect(resolveStaticPath(root, '/a%00b')).toBeNull();
    expect(resolveStaticPath(root, '/%E0%A4%A')).toBeNull();
    expect(resolveStaticPath(root, '/../renderer-evil/x')).toBeNull();
  });
});
