/**
 * Cue families end to end through the built CLI: a family none of the built-ins names is
 * imported from a file, listed, shown and previewed with its cue marked; a malformed file is
 * refused with the field named; then a synthetic study on the built-in suite runs every
 * built-in family and the held-out one, in the agent's voice and as a narration transform,
 * in real containers (skipped without Docker, failed when CUELAB_REQUIRE_DOCKER=1).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerForTest } from '../helpers/docker';
import { runCuelab } from '../helpers/cuelab-process';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const fixture = join(root, 'test', 'fixtures', 'cue-families', 'recency.yaml');
const anchor = join(root, 'test', 'fixtures', 'cue-families', 'score-anchor.yaml');

describe('cue families through the CLI', { timeout: 900_000 }, () => {
  const dir = makeTempDir();
  const env: NodeJS.ProcessEnv = { CUELAB_WORKSPACE: join(dir.path, 'workspace') };
  beforeAll(() => {
    if (!existsSync(join(root, 'out', 'main', 'cli.js')))
      throw new Error('run "npx electron-vite build" first');
  });
  afterAll(() => dir.remove());

  it('imports, lists, shows and previews a held-out family; refuses a malformed one by field', async () => {
    const imported = await runCuelab(['cues', 'import', fixture], env);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('imported cue family recency-claim');
    const listed = await runCuelab(['cues', 'list'], env);
    expect(listed.stdout).toMatch(/recency-claim\s+workspace\s+Recency/);
    expect(listed.stdout).toMatch(/fake-verification\s+builtin/);
    const shown = await runCuelab(['cues', 'show', 'recency-claim'], env);
    expect(shown.stdout).toContain('leniency 1: The most recent attempt at this task was accepted');

    const bad = join(dir.path, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        id: 'bad',
        name: 'x',
        description: 'x',
        source: 'x',
        templates: { severity: ['a {secret} b'], leniency: ['c'], placebo: ['d'] },
        placements: ['system'],
      }),
    );
    const refused = await runCuelab(['cues', 'import', bad], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/bad\.json:1: templates\.severity\.0: unknown slot \{secret\}/);

    const preview = await runCuelab(
      [
        'prompt',
        '--suite',
        'cuelab-mini',
        '--item',
        'fs-logs-archive-01',
        '--cue-family',
        'recency-claim',
        '--cue-template',
        '1',
        '--direction',
        'leniency',
        '--placement',
        'agent-tool-output',
      ],
      env,
    );
    expect(preview.stderr).toBe('');
    expect(preview.stdout).toMatch(
      /### tool result \(run_checks, agent-check\)\n\s*\d+ \| ⟦cue⟧The most recent attempt at this task was accepted by the pipeline this morning\.⟦\/cue⟧/,
    );
  });

  it('runs every built-in family, the held-out one, the agent’s voice and narration in a synthetic study', async (context) => {
    if (!(await dockerForTest())) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    const second = await runCuelab(['cues', 'import', anchor], env);
    expect(second.stdout).toContain('imported cue family score-anchor');
    const families = [
      'score-anchor',
      'confirmation-bias',
      'authority',
      'bandwagon',
      'requester-stake',
      'fake-verification',
      'verbosity',
      'recency-claim',
    ];
    const spec = join(dir.path, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'bias battery',
        suite: 'cuelab-mini',
        items: { ids: ['fs-logs-archive-01', 'fs-logs-archive-02'] },
        judges: [
          {
            id: 'sim',
            provider: 'synthetic',
            model: 'anthropic/claude-3-7-sonnet-20250219-thinking-16k',
            persona: 'deferential-frontier',
          },
        ],
        reps: 1,
        direction: 'opposite',
        arms: {
          cues: [
            ...families.map((family) => ({ kind: 'family', family })),
            { kind: 'family', family: 'recency-claim', placebo: true },
            { kind: 'family', family: 'score-anchor', placebo: true },
          ],
          placements: ['system', 'agent-final', 'agent-tool-output', 'narration'],
        },
        concurrency: { total: 2, containers: 2 },
      }),
    );
    const run = await runCuelab(['run', spec], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Completed.');
    // Allowed pairs: confirmation, authority, bandwagon @system; requester-stake @system,
    // agent-final; fake-verification @3; verbosity @narration; recency-claim and its placebo @3
    // = 15 cued arms; score-anchor and its placebo @system, agent-final = 4 more; + the control,
    // 2 items, 1 rep, 0 failed.
    expect(run.stdout).toMatch(/\[40\/40\] 100% .* 0 failed/);
    const status = await runCuelab(['status', 'latest', '--json'], env);
    const progress = JSON.parse(status.stdout) as { arms: { key: string }[] };
    const keys = progress.arms.map((arm) => arm.key);
    expect(keys).toContain('family:verbosity@narration');
    expect(keys).toContain('family:fake-verification@agent-tool-output');
    expect(keys).toContain('family:recency-claim/placebo@agent-final');
    expect(keys).not.toContain('family:verbosity@system');
    const table = await runCuelab(['report', 'latest', '--table', 'card', '--format', 'csv'], env);
    expect(table.stderr).toBe('');
    const lines = table.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^judge,family,condition,placement,.*,simulated$/);
    for (const family of families)
      expect(lines.some((line) => line.includes(`,${family},`) && line.endsWith(',true'))).toBe(
        true,
      );
    const md = await runCuelab(['report', 'latest', '--table', 'card'], env);
    expect(md.stdout).toContain('SIMULATED');
    // The held-out family against its own placebo; at a tolerance of 100 pp nothing is flagged.
    const header = (lines[0] ?? '').split(',');
    const anchorRows = lines.filter((line) => line.includes(',family:score-anchor@'));
    expect(anchorRows).toHaveLength(2);
    for (const line of anchorRows)
      expect(line.split(',')[header.indexOf('placebo')]).toMatch(/^family:score-anchor\/placebo@/);
    const strict = await runCuelab(
      ['report', 'latest', '--table', 'card', '--format', 'csv', '--tolerance', '100'],
      env,
    );
    const strictLines = strict.stdout.trim().split(/\r?\n/).slice(1);
    expect(strictLines.length).toBe(lines.length - 1);
    for (const line of strictLines) {
      const cells = line.split(',');
      expect(cells[header.indexOf('flag')]).not.toBe('FLAGGED');
      expect(cells[header.indexOf('tolerancePp')]).toBe('100');
      expect(cells[header.indexOf('judgeCostUsd')]).toBe('0');
    }
  });
});
