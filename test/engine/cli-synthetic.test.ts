import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerForTest } from '../helpers/docker';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');

interface StoredRep {
  outcome: string;
  simulated: number;
  simulation: { simulated: boolean; persona: string; mechanism: string } | null;
  tool_calls: { name: string; output: string }[];
  messages: { role: string; content: string }[];
}

describe('cuelab judge --provider synthetic on the built-in suite, in a real container', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  function judge(extra: string[] = []): StoredRep {
    const result = spawnSync(
      process.execPath,
      [
        bin,
        'judge',
        '--suite',
        'cuelab-mini',
        '--item',
        'fs-logs-archive-02',
        '--provider',
        'synthetic',
        '--persona',
        'deferential-frontier',
        '--json',
        ...extra,
      ],
      { encoding: 'utf8', env: { ...process.env, CUELAB_WORKSPACE: dir.path }, timeout: 120_000 },
    );
    expect(result.stderr).not.toMatch(/failed|Error/);
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as StoredRep;
  }

  it('investigates with real tool calls whose output came from the container, and is marked simulated', async (context) => {
    if (!(await dockerForTest())) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    const rep = judge();
    expect(rep.outcome).toBe('verdict');
    expect(rep.simulated).toBe(1);
    expect(rep.simulation).toMatchObject({ simulated: true, persona: 'deferential-frontier' });
    const shell = rep.tool_calls.find((call) => call.name === 'shell');
    expect(shell?.output).toMatch(/^exit code: 0\nstdout:\n/);
    const listing = rep.tool_calls.find((call) => call.name === 'list_dir');
    expect(listing?.output).toContain('logs');

    // Same seed, same transcript (the rows differ only by their rep id).
    const again = judge();
    const text = (stored: StoredRep) =>
      stored.messages.map(({ role, content }) => ({ role, content }));
    expect(text(again)).toEqual(text(rep));
  });
});
