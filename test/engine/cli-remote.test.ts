/**
 * One way in: `cuelab --engine URL --token T status|report|run` drives a running
 * `cuelab serve` through LabApi and prints what the same command prints with the workspace
 * opened in-process. Real processes, a real SQLite workspace, a files-only suite (no Docker
 * needed) judged through the real Anthropic SDK against the local fake model server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReadyLine } from '../../src/shared/ready-line';
import type { EngineAddress } from '../../src/shared/lab-client';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');

const specFor = (baseUrl: string) => ({
  name: 'remote parity',
  suite: 'fixture-suite',
  judges: [{ id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl }],
  reps: 2,
  concurrency: { total: 1, containers: 1 },
});

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Each case spawns the CLI a dozen times (a few seconds each on a busy 2-core machine).
describe(
  'cuelab --engine drives a running engine like the workspace here',
  { timeout: 240_000 },
  () => {
    const dir = makeTempDir();
    const workspace = join(dir.path, 'workspace');
    const specPath = join(dir.path, 'spec.json');
    let serve: ChildProcess | null = null;
    let address: EngineAddress;
    let model: FakeModelServer;
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'test-key' };
    delete env.CUELAB_ENGINE;
    delete env.CUELAB_TOKEN;
    delete env.CUELAB_WORKSPACE;

    // Asynchronous: the fake model server lives in this process and must answer meanwhile.
    const cuelabWith = (extraEnv: NodeJS.ProcessEnv, ...args: string[]) =>
      new Promise<Outcome>((resolve, reject) => {
        const child = spawn(process.execPath, [bin, ...args], { env: { ...env, ...extraEnv } });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      });
    const cuelab = (...args: string[]) => cuelabWith({}, ...args);
    const local = (...args: string[]) => cuelab(...args, '--workspace', workspace);
    const remote = (...args: string[]) =>
      cuelab('--engine', address.baseUrl, '--token', address.token, ...args);

    beforeAll(async () => {
      if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first.`);
      model = await startFakeModelServer();
      model.handle('anthropic', deferentialJudge());
      writeFileSync(specPath, JSON.stringify(specFor(model.url)));
      const imported = await local(
        'suite',
        'import',
        join(root, 'test', 'fixtures', 'mini-suite.json'),
      );
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
    });

    /** `cuelab serve` on the workspace; its runner runs every study there, so it starts second. */
    const startServe = async () => {
      const child = spawn(
        process.execPath,
        [bin, 'serve', '--port', '0', '--workspace', workspace],
        {
          env,
        },
      );
      serve = child;
      const line = await new Promise<string>((resolve, reject) => {
        let buffered = '';
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (chunk: string) => {
          buffered += chunk;
          const newline = buffered.indexOf('\n');
          if (newline >= 0) resolve(buffered.slice(0, newline));
        });
        child.once('exit', (code) => reject(new Error(`cuelab serve exited early (${code})`)));
      });
      const parsed = parseReadyLine(line);
      if (!parsed) throw new Error(`not a ready line: ${line}`);
      address = parsed;
    };

    afterAll(async () => {
      if (serve && serve.exitCode === null) {
        const exited = new Promise((resolve) => serve?.once('exit', resolve));
        serve.kill('SIGTERM');
        await exited;
      }
      await model.close();
      dir.remove();
    });

    /** The lines that do not depend on timing, with study ids made equal. */
    const settledLines = (outcome: Outcome, studyId: string) => {
      const lines = outcome.stdout.trimEnd().split('\n');
      const progress = lines.filter((line) => line.startsWith('['));
      return [...lines.filter((line) => !line.startsWith('[')), progress.at(-1)].map((line) =>
        line?.replaceAll(studyId, 'STUDY'),
      );
    };
    const studyIdOf = (outcome: Outcome) => /^Study ([0-9a-f-]+) /.exec(outcome.stdout)?.[1] ?? '';

    it('run creates the study in the engine, follows it to the end and prints the same', async () => {
      const inProcess = await local('run', specPath, '--trust-endpoint', model.url);
      expect(inProcess.stderr).toBe('');
      expect(inProcess.code).toBe(0);
      await startServe();
      const viaEngine = await remote('run', specPath, '--trust-endpoint', model.url);
      expect(viaEngine.stderr).toBe('');
      expect(viaEngine.code).toBe(0);
      const localId = studyIdOf(inProcess);
      const remoteId = studyIdOf(viaEngine);
      expect(localId).not.toBe('');
      expect(remoteId).not.toBe(localId);
      expect(settledLines(viaEngine, remoteId)).toEqual(settledLines(inProcess, localId));
      expect(viaEngine.stdout).toContain(
        `Completed. Tables: cuelab report ${remoteId} --table flips`,
      );
      expect(model.requests().length).toBeGreaterThan(0);
    });

    it('a broken spec file is read here and named line by line by the engine, both ways', async () => {
      const broken = join(dirname(specPath), 'broken.yaml');
      writeFileSync(
        broken,
        'name: broken\nsuite: cuelab-mini\njudges:\n  - id: a\n    provider: nope\n',
      );
      const inProcess = await local('run', broken);
      const viaEngine = await remote('run', broken);
      expect(inProcess.code).toBe(1);
      expect(viaEngine.code).toBe(1);
      expect(inProcess.stderr).toContain(`${broken}:5: judges.0.provider:`);
      expect(viaEngine.stderr).toBe(inProcess.stderr);
    });

    it('status and report answer the same through the engine as in-process', async () => {
      const commands = [
        ['status'],
        ['status', '--json'],
        ['status', 'latest'],
        ['status', 'latest', '--json'],
        ['report', 'latest', '--table', 'flips'],
        ['report', 'latest', '--table', 'accuracy', '--format', 'csv'],
        ['report', 'latest', '--table', 'flips', '--format', 'json'],
      ];
      for (const command of commands) {
        const inProcess = await local(...command);
        const viaEngine = await remote(...command);
        expect(inProcess.code, command.join(' ')).toBe(0);
        expect(viaEngine.stderr, command.join(' ')).toBe('');
        expect(viaEngine, command.join(' ')).toEqual(inProcess);
        expect(viaEngine.stdout).not.toContain(address.token);
      }
      expect((await local('status')).stdout.trim().split('\n')).toHaveLength(2);
    });

    /** Files a command wrote into `folder`, by name (the folder itself differs per mode). */
    const filesIn = (folder: string) =>
      Object.fromEntries(
        readdirSync(folder)
          .sort()
          .map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
      );
    /** A command's outcome with its own output folder made equal across the two modes. */
    const sameAs = (outcome: Outcome, folder: string) => ({
      ...outcome,
      stdout: outcome.stdout.replaceAll(folder, 'OUT'),
      stderr: outcome.stderr.replaceAll(folder, 'OUT'),
    });
    const both = async (run: (mode: 'local' | 'remote', folder: string) => Promise<Outcome>) => {
      const folders = { local: join(dir.path, 'out-local'), remote: join(dir.path, 'out-remote') };
      mkdirSync(folders.local, { recursive: true });
      mkdirSync(folders.remote, { recursive: true });
      const inProcess = sameAs(await run('local', folders.local), folders.local);
      const viaEngine = sameAs(await run('remote', folders.remote), folders.remote);
      expect(viaEngine.stdout + viaEngine.stderr).not.toContain(address.token);
      return { inProcess, viaEngine, folders };
    };
    const either = (mode: 'local' | 'remote', ...args: string[]) =>
      mode === 'local' ? local(...args) : remote(...args);

    it('the file commands answer and write the same through the engine as in-process', async () => {
      const suiteFile = join(root, 'test', 'fixtures', 'mini-suite.json');
      for (const command of [
        ['prompt', '--suite', 'fixture-suite', '--item', 'fs-logs-01', '--cue', 'strong'],
        ['prompt', '--suite', suiteFile, '--item', 'db-count-01', '--json'],
        ['prompt', '--suite', suiteFile, '--item', 'no-such-item'],
        ['classify', 'latest', '--diff-only'],
        ['export-labels', 'latest', '--all'],
        ['export-labels', 'latest', '--sheet', 'ann'],
      ]) {
        const { inProcess, viaEngine } = await both((mode) => either(mode, ...command));
        expect(viaEngine, command.join(' ')).toEqual(inProcess);
      }
      expect((await local('classify', 'latest', '--diff-only')).stdout).toMatch(/flipped reps/);
      expect((await local('prompt', '--suite', suiteFile, '--item', 'no-such-item')).code).toBe(1);

      // Written files: labels CSV, Inspect logs, a bundle (its export time aside).
      const labels = await both((mode, folder) =>
        either(mode, 'export-labels', 'latest', '--all', '--out', join(folder, 'labels.csv')),
      );
      expect(labels.viaEngine).toEqual(labels.inProcess);
      expect(labels.inProcess.code).toBe(0);
      expect(filesIn(labels.folders.remote)).toEqual(filesIn(labels.folders.local));

      const inspect = await both((mode, folder) =>
        either(mode, 'export-inspect', 'latest', join(folder, 'logs')),
      );
      expect(inspect.viaEngine).toEqual(inspect.inProcess);
      expect(inspect.inProcess.code).toBe(0);
      const logs = filesIn(join(inspect.folders.local, 'logs'));
      expect(Object.keys(logs).length).toBeGreaterThan(0);
      expect(filesIn(join(inspect.folders.remote, 'logs'))).toEqual(logs);

      const bundles = await both((mode, folder) =>
        either(mode, 'export-bundle', 'latest', '--out', join(folder, 'study.json.gz')),
      );
      expect(bundles.inProcess.code).toBe(0);
      const bundleOf = (folder: string) => {
        const bundle = JSON.parse(
          gunzipSync(readFileSync(join(folder, 'study.json.gz'))).toString('utf8'),
        ) as Record<string, unknown>;
        return { ...bundle, exportedAt: 'WHEN' };
      };
      expect(bundleOf(bundles.folders.remote)).toEqual(bundleOf(bundles.folders.local));
      // Only the byte count may differ, with the export time inside the gzip.
      const countless = (outcome: Outcome) => ({
        ...outcome,
        stdout: outcome.stdout.replace(/\(\d+ bytes\)/, '(N bytes)'),
      });
      expect(countless(bundles.viaEngine)).toEqual(countless(bundles.inProcess));

      // Files read here travel to the engine: a labels sheet, good and bad; a results file.
      const sheet = join(dir.path, 'sheet.csv');
      writeFileSync(sheet, (await local('export-labels', 'latest', '--sheet', 'ann')).stdout);
      const bad = join(dir.path, 'bad-labels.csv');
      writeFileSync(bad, 'rep_id,annotator,label\nnope,ann,over_trust\n');
      const results = join(root, 'test', 'fixtures', 'results', 'mini-results.csv');
      const badResults = join(root, 'test', 'fixtures', 'results', 'bad-rows.csv');
      for (const command of [
        ['import-labels', sheet],
        ['import-labels', bad],
        ['import-labels', join(dir.path, 'missing.csv')],
        ['import-results', badResults],
      ]) {
        const { inProcess, viaEngine } = await both((mode) => either(mode, ...command));
        expect(viaEngine, command.join(' ')).toEqual(inProcess);
      }
      const rejected = await local('import-labels', bad);
      expect(rejected.code).toBe(1);
      expect(rejected.stderr).toContain('  line 2: rep nope is not a flipped rep');
      const imported = await both((mode) =>
        either(mode, 'import-results', results, '--name', 'imported'),
      );
      const newStudy = (outcome: Outcome) => ({
        ...outcome,
        stdout: outcome.stdout
          .replace(/study [0-9a-f-]{36}/g, 'study STUDY')
          .replace(/report [0-9a-f-]{36}/g, 'report STUDY'),
      });
      expect(imported.inProcess.code).toBe(0);
      expect(newStudy(imported.viaEngine)).toEqual(newStudy(imported.inProcess));
    });

    it('suite list/show/import and env hosts answer the same through the engine', async () => {
      const suiteFile = join(root, 'test', 'fixtures', 'mini-suite.json');
      const broken = join(dir.path, 'broken-suite.json');
      writeFileSync(broken, JSON.stringify({ id: 'broken', items: [{ id: 'x' }] }));
      const runs = join(root, 'test', 'fixtures', 'import');
      for (const command of [
        ['suite', 'list'],
        ['suite', 'list', 'fixture-suite'],
        ['suite', 'list', 'no-such-suite'],
        ['suite', 'show', 'fixture-suite'],
        ['suite', 'import', suiteFile],
        ['suite', 'import', broken],
        ['suite', 'import', join(runs, 'mini-swe-agent'), '--json'],
        ['suite', 'import', join(runs, 'mini-swe-agent'), '--name', 'swe runs'],
        ['env', 'hosts', '--json'],
      ]) {
        // A host's probe time, images and containers move with the shared Docker engine meanwhile.
        const steady = (outcome: Outcome) => ({
          ...outcome,
          stdout: outcome.stdout
            .replace(/"lastProbeAt": "[^"]*"/g, '"lastProbeAt": "WHEN"')
            .replace(/"(images|containersRunning)": \d+/g, '"$1": N'),
        });
        const inProcess = steady(await local(...command));
        const viaEngine = steady(await remote(...command));
        expect(viaEngine, command.join(' ')).toEqual(inProcess);
        expect(viaEngine.stdout + viaEngine.stderr).not.toContain(address.token);
      }
      expect((await local('suite', 'list')).stdout).toContain('fixture-suite\t2 items');
      expect((await local('suite', 'import', broken)).code).toBe(1);
      const verify = await remote('suite', 'verify', 'fixture-suite');
      expect(verify.code).toBe(2);
      expect(verify.stderr).toContain('does not take --engine');
    });

    it('takes the engine from CUELAB_ENGINE / CUELAB_TOKEN and the ready URL, never printing the token', async () => {
      const fromEnv = await cuelabWith(
        { CUELAB_ENGINE: address.baseUrl, CUELAB_TOKEN: address.token },
        'status',
        'latest',
      );
      expect(fromEnv.stderr).toBe('');
      expect(fromEnv.stdout).toBe((await local('status', 'latest')).stdout);
      const readyUrl = `${address.baseUrl}?token=${address.token}`;
      const fromUrl = await cuelab('--engine', readyUrl, 'status');
      expect(fromUrl.code).toBe(0);
      expect(fromUrl.stdout).toBe((await local('status')).stdout);

      const wrongToken = await cuelab(
        '--engine',
        address.baseUrl,
        '--token',
        'not-the-token',
        'status',
      );
      expect(wrongToken.code).toBe(1);
      expect(wrongToken.stderr).toContain('A valid engine token is required');
      const missing = await remote('status', 'no-such-study');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('There is no study "no-such-study"');
      for (const outcome of [fromEnv, fromUrl, wrongToken, missing]) {
        expect(outcome.stdout + outcome.stderr).not.toContain(address.token);
      }
    });

    it('refuses --engine for a command that runs locally, and says so in its help', async () => {
      const refused = await remote('env', 'status');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('cuelab env runs locally and does not take --engine');
      expect((await cuelab('serve', '--help')).stdout).toContain('This command runs locally');
      expect((await remote('status', '--workspace', workspace)).code).toBe(2);
    });
  },
);
