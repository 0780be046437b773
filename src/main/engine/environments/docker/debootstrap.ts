/**
 * Runs debootstrap for the base image and turns its line-per-package output into a few phase
 * lines (retrieving, unpacking, configuring) with counts, so progress reads at a glance.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EngineError } from '../../errors';

/** What debootstrap builds. */
export interface DebootstrapRecipe {
  suite: string;
  variant: string;
  packages: readonly string[];
  mirror: string;
}

const sbinPath = '/usr/local/sbin:/usr/sbin:/sbin';

/** The debootstrap executable, or a clear error naming the install command. */
export function findDebootstrap(): string {
  const directories = [...(process.env.PATH ?? '').split(delimiter), ...sbinPath.split(':')];
  for (const directory of directories) {
    if (!directory) continue;
    const candidate = join(directory, 'debootstrap');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  throw new EngineError(
    'internal',
    'debootstrap is not installed; it builds the base image without a registry. ' +
      'Fix: apt-get install -y debootstrap',
  );
}

/**
 * Runs debootstrap into `target`, reporting phase changes (and a heartbeat every 10 s) through
 * `report`. On abort the whole process group is killed. Rejects with the tail of the output.
 */
export async function runDebootstrap(
  recipe: DebootstrapRecipe,
  target: string,
  report: (message: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  const args = [
    `--variant=${recipe.variant}`,
    `--include=${recipe.packages.join(',')}`,
    recipe.suite,
    target,
    recipe.mirror,
  ];
  const child = spawn(findDebootstrap(), args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${sbinPath}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  });
  const summary = new DebootstrapSummary(report);
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) summary.line(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  signal?.addEventListener('abort', killGroup, { once: true });
  const heartbeat = setInterval(() => summary.heartbeat(), 10_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (buffered) summary.line(buffered);
    signal?.throwIfAborted();
    if (code !== 0) {
      throw new EngineError(
        'internal',
        `debootstrap exited with ${code}. Its last lines:\n${summary.tail()}`,
      );
    }
  } finally {
    clearInterval(heartbeat);
    signal?.removeEventListener('abort', killGroup);
    killGroup();
  }
}

/** Mount points inside `root` (debootstrap mounts /proc and /sys there while it configures). */
export function mountsInside(root: string): string[] {
  let table = '';
  try {
    table = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return [];
  }
  return table
    .split('\n')
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' ') ?? '')
    .filter((point) => point.startsWith(`${root}/`))
    .sort((a, b) => b.length - a.length);
}

/** Folds debootstrap's per-package lines into phases with counts. */
class DebootstrapSummary {
  private phase = '';
  private count = 0;
  private readonly recent: string[] = [];

  constructor(private readonly report: (message: string) => void) {}

  line(raw: string): void {
    const line = raw.trimEnd();
    if (!line) return;
    this.recent.push(line);
    if (this.recent.length > 40) this.recent.shift();
    if (line.startsWith('W: ') || line.startsWith('E: ')) {
      this.report(`debootstrap ${line}`);
      return;
    }
    const phase = phaseOf(line);
    if (!phase) return;
    if (phase !== this.phase) {
      this.phase = phase;
      this.count = 0;
      this.report(`debootstrap: ${phase}`);
    }
    this.count += 1;
  }

  heartbeat(): void {
    if (this.phase) this.report(`debootstrap: ${this.phase} (${this.count} steps so far)`);
  }

  tail(): string {
    return this.recent.slice(-15).join('\n');
  }
}

function phaseOf(line: string): string | undefined {
  if (/^I: (Retrieving|Validating|Checking|Found|Resolving)/.test(line)) {
    return 'resolving and retrieving packages';
  }
  if (/^I: (Extracting|Installing core|Unpacking)/.test(line)) return 'unpacking packages';
  if (/^I: Configuring/.test(line)) return 'configuring packages';
  if (/^I: Base system installed/.test(line)) return 'base system installed';
  return undefined;
}
