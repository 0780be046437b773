import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { engineVersion } from '../../src/main/engine/version';

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cuelab command line', () => {
  it('prints help listing the commands, with and without --help', async () => {
    for (const args of [[], ['--help'], ['-h'], ['help']]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.out).toContain('Usage: cuelab <command> [options]');
      expect(result.out).toMatch(/^ {2}serve +Start the engine/m);
    }
  });

  it('prints a command help page', async () => {
    for (const args of [
      ['serve', '--help'],
      ['help', 'serve'],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.out).toContain('Usage: cuelab serve [--workspace DIR] [--port N]');
    }
  });

  it('prints the version', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, out: engineVersion, err: '' });
    expect((await run(['-v'])).out).toBe(engineVersion);
  });

  it('rejects unknown commands and options with exit 2 and a pointer to help', async () => {
    const unknown = await run(['serv']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'cuelab: unknown command "serv". Run "cuelab --help" for the list of commands.',
    );
    expect((await run(['--verbose'])).code).toBe(2);
    expect((await run(['help', 'nope'])).code).toBe(2);

    const badFlag = await run(['serve', '--prot', '80']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toContain("Unknown option '--prot'");
    expect(badFlag.err).toContain('Run "cuelab serve --help" for usage.');

    const badPort = await run(['serve', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.err).toContain('--port must be a whole number from 0 to 65535, not "eighty"');
  });
});
