import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { directionColours } from '../../src/main/cli/figure/direction-figure';
import { specNeedsDocker } from '../../src/main/engine/environments/provision';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');

/** Width, height and RGB rows of a PNG this project wrote (8-bit RGB, filter 0 on every row). */
function readPng(file: Buffer): {
  width: number;
  height: number;
  pixel(x: number, y: number): string;
} {
  expect([...file.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(file.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = file.readUInt32BE(16);
  const height = file.readUInt32BE(20);
  expect([file[24], file[25]]).toEqual([8, 2]);
  const idat: Buffer[] = [];
  for (let offset = 8; offset < file.length;) {
    const length = file.readUInt32BE(offset);
    const type = file.subarray(offset + 4, offset + 8).toString('latin1');
    if (type === 'IDAT') idat.push(file.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(idat));
  expect(rows.length).toBe((width * 3 + 1) * height);
  return {
    width,
    height,
    pixel: (x, y) => {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      return `${rows[at]},${rows[at + 1]},${rows[at + 2]}`;
    },
  };
}

describe('cuelab demo without Docker', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('judges the items that need no container, says what it skipped, prints its tables and writes a figure PNG', async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve) => {
        const child = spawn(process.execPath, [bin, 'demo'], {
          // No Docker daemon: the engine's Docker client (dockerode honours DOCKER_HOST) finds
          // no socket, as on a laptop without Docker installed.
          env: {
            ...process.env,
            CUELAB_WORKSPACE: dir.path,
            DOCKER_HOST: 'unix:///nonexistent/docker.sock',
          },
        });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, output: text }));
      },
    );
    expect(code, output).toBe(0);
    expect(output).toContain(
      'Docker is not running here: Docker is not reachable: no Docker socket',
    );
    expect(output).not.toContain('Preparing the Docker base image');
    expect(output).not.toMatch(/^Paused/m);
    // Only the items served without a container run; the rest are named with their reason.
    expect(output).toMatch(/^Substrates: web \(6\)$/m);
    const suite = suiteFileSchema.parse(
      JSON.parse(readFileSync(join(root, 'resources', 'suites', 'cuelab-mini.json'), 'utf8')),
    );
    const skipped = suite.items.filter((item) => specNeedsDocker(item.environment));
    expect(skipped.length).toBeGreaterThan(0);
    expect(output).toContain(
      `Skipped without Docker: ${skipped.length} items of cuelab-mini — code (12), database (13), filesystem (12), postgres (11).`,
    );
    // 6 items × 2 judges × (uncued + strong severity + strong leniency) × 3 reps.
    expect(output).toContain('[108/108] 100%');
    expect(output).toMatch(
      /^\| preset:strong@system \| task_success \| judge-dataset \| deferential +\| mini-search +\| +6 \|/m,
    );
    expect(output).toMatch(
      /^\| preset:strong@system \| task_success \| judge-dataset \| robust +\| mini-search +\| +6 \|/m,
    );
    expect(output).toContain('## Direction asymmetry: severity vs leniency');
    // The public Terminal-Bench run is judged from its trajectory: no container either.
    const publicPart = output.slice(output.indexOf('Judging a public Terminal-Bench run'));
    expect(publicPart).toContain('[18/18] 100%');
    expect(publicPart).toMatch(/\| judge-dataset \| deferential +\| terminal-bench +\| +1 \|/);
    expect(output.match(/\*\*SIMULATED: synthetic-judge data\*\*/g)).toHaveLength(4);

    // The figure: a real PNG of the size printed, with both directions' bars drawn and the
    // SIMULATED line in its warning colour.
    const figure = /^Figure: (.+\.png) \((\d+)×(\d+) PNG\)$/m.exec(output);
    expect(figure, output).not.toBeNull();
    const png = readPng(readFileSync(figure?.[1] ?? ''));
    expect([png.width, png.height]).toEqual([Number(figure?.[2]), Number(figure?.[3])]);
    expect(png.width).toBeGreaterThan(600);
    const seen = new Set<string>();
    for (let y = 0; y < png.height; y += 1)
      for (let x = 0; x < png.width; x += 1) seen.add(png.pixel(x, y));
    expect(seen).toContain(directionColours.severity.join(','));
    expect(seen).toContain(directionColours.leniency.join(','));
    expect(seen).toContain('176,42,55');
  }, 240_000);
});
