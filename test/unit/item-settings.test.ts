import { describe, expect, it } from 'vitest';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerItemSettings } from '../../src/main/engine/environments/docker/item-settings';

// Which rep containers get a read-only root: a shell-less judge cannot write, so
// its root is read-only; a PostgreSQL server must write its log and run files, so a Postgres
// item keeps a writable root even without a shell (found importing MCPMark postgres runs).
describe('read-only root of a rep container', () => {
  const settings = (spec: Record<string, unknown>) =>
    dockerItemSettings(environmentSpecSchema.parse(spec), undefined);

  it('is read-only without a shell, writable with one', () => {
    expect(settings({ shell: false }).readOnlyRoot).toBe(true);
    expect(settings({ shell: true }).readOnlyRoot).toBe(false);
  });

  it('stays writable for a Postgres item without a shell', () => {
    expect(
      settings({ shell: false, postgres: { sql: 'CREATE TABLE t (a int);' } }).readOnlyRoot,
    ).toBe(false);
  });
});
