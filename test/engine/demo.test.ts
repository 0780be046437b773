import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { dockerForTest } from '../helpers/docker';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');

describe('cuelab demo', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('runs the ready-made study in real containers and prints its tables, marked simulated', async (context) => {
    if (!(await dockerForTest())) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve) => {
        const child = spawn(process.execPath, [bin, 'demo'], {
          env: { ...process.env, CUELAB_WORKSPACE: dir.path },
        });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, output: text }));
      },
    );
    expect(code, output).toBe(0);
    // The demo says which substrates ran; a Postgres item joins once its image is built.
    const substrates = /^Substrates: (.+)$/m.exec(output)?.[1] ?? '';
    expect(substrates).toMatch(/filesystem \(\d+\)/);
    expect(substrates).toMatch(/web \(1\)/);
    if (await findPostgresImage(new Docker())) expect(substrates).toContain('postgres (1)');
    else expect(output).toContain('add one with cuelab demo --postgres');
    const items = [...substrates.matchAll(/\((\d+)\)/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    // 2 judges × (uncued + strong severity + strong leniency) × 3 reps per item.
    const reps = items * 18;
    expect(output).toContain(`[${reps}/${reps}] 100%`);
    // Last, the public Terminal-Bench run shipped in resources/runs, imported and judged by
    // reading its trajectory (it has no probes): one item × the same 18 reps, with verdicts.
    const publicPart = output.slice(output.indexOf('Judging a public Terminal-Bench run'));
    expect(publicPart).toMatch(
      /^Judging a public Terminal-Bench run \(hello-world\.1-of-5 \(gold pass\)\)/,
    );
    expect(publicPart).toContain('[18/18] 100%');
    expect(publicPart).not.toContain('has no probes');
    expect(publicPart).toMatch(
      /\| preset:strong@system \| task_success \| judge-dataset \| deferential +\| terminal-bench +\| +1 \|/,
    );
    expect(output).toContain('## Harmful and helpful flips per judge × dataset');
    expect(output).toContain('## Direction asymmetry: severity vs leniency');
    // Flips and severity of the demo study, then the public run's flips: each marked.
    expect(output.match(/\*\*SIMULATED: synthetic-judge data\*\*/g)).toHaveLength(4);
    expect(publicPart).toContain('**SIMULATED: synthetic-judge data**');
    // The seeded calibration simulation the demo prints says which numbers each persona was
    // fitted to and which it is validated on; intervals on App. D's per-direction n.
    expect(output).toContain('## Calibration of the simulated personas');
    const calibration = output
      .split('\n')
      .filter((line) => /^\| (deferential|robust)-frontier /.test(line));
    expect(calibration).toHaveLength(14);
    // Fitted: solved for, or implied by what was solved for (Table 5 adversarial, Fig. 3's sign).
    const fitted = calibration.filter((line) => line.includes('| fitted'));
    expect(fitted).toHaveLength(12);
    // A fitted row clearly outside its interval would mean the solve is broken; it is no evidence.
    for (const line of fitted) expect(line, line).not.toMatch(/\| (outside|NO) \|$/);
    // The evidence: numbers no persona was solved for. Robust-frontier's untargeted accuracy is
    // a known miss (synthetic-calibration.test.ts keeps the ledger, PAPER-DECISIONS.md why).
    const validated = calibration.filter((line) => line.includes('| validated |'));
    expect(validated).toHaveLength(2);
    for (const line of validated) {
      expect(line, line).toMatch(/\| (inside|outside|within simulation error) \|$/);
      if (/robust-frontier .*Table 5 untargeted/.test(line)) expect(line).not.toMatch(/inside \|$/);
    }
    expect(output).toMatch(
      /\| robust-frontier \| Sonnet-4\.6 \| fitted \| App\. D severity \| +\d[\d.]* \| +10\.0 \| +486 \|/,
    );
    expect(output).toMatch(
      new RegExp(
        `\\| preset:strong@system \\| task_success \\| all +\\| all +\\| all +\\| +${items * 2} \\|`,
      ),
    );
  }, 600_000);
});
