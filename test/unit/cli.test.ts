import { describe, expect, it } from 'vitest';
import { parseGlobalOptions } from '../../src/main/cli/connection';
import { runCli } from '../../src/main/cli/main';
import { engineVersion } from '../../src/main/engine/version';

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, {});
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cuelab command line', () => {
  it('prints help listing the commands, with and without --help', async () => {
    for (const args of [[], ['--help'], ['-h'], ['help']]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.out).toContain('Usage: cuelab [--engine URL --token T] <command> [options]');
      expect(result.out).toMatch(/^ {2}serve +Start the engine.*\(runs locally\)$/m);
      expect(result.out).toMatch(/^ {2}status +Show studies(?!.*runs locally).*$/m);
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
      'cuelab: unknown command "serv". Did you mean "serve"? Run "cuelab --help" for the list of commands.',
    );
    expect((await run(['--verbose'])).code).toBe(2);
    expect((await run(['help', 'nope'])).code).toBe(2);

    const badFlag = await run(['serve', '--prot', '80']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toContain('cuelab serve: unknown option "--prot". Did you mean "--port"?');
    expect(badFlag.err).toContain('Run "cuelab serve --help" for usage.');

    const badPort = await run(['serve', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.err).toContain('--port must be a whole number from 0 to 65535, not "eighty"');
  });

  it('takes --engine / --token before the command, or CUELAB_ENGINE / CUELAB_TOKEN', () => {
    const flags = parseGlobalOptions(
      ['--engine', 'http://127.0.0.1:9/', '--token=abc', 'status', '--json'],
      {},
    );
    expect(flags).toEqual({
      rest: ['status', '--json'],
      remote: { baseUrl: 'http://127.0.0.1:9/', token: 'abc' },
      explicit: true,
    });
    const env = { CUELAB_ENGINE: 'http://127.0.0.1:9/', CUELAB_TOKEN: 'xyz' };
    expect(parseGlobalOptions(['status'], env).remote?.token).toBe('xyz');
    // The ready line's URL carries the token; it leaves the URL and never comes back into it.
    const ready = parseGlobalOptions(['--engine', 'http://127.0.0.1:9/?token=t0k', 'status'], {});
    expect(ready.remote).toEqual({ baseUrl: 'http://127.0.0.1:9/', token: 't0k' });
    expect(parseGlobalOptions(['status'], {}).remote).toBeNull();
  });

  it('rejects a half-given engine with exit 2, without printing any token', async () => {
    const noToken = await run(['--engine', 'http://127.0.0.1:9/', 'status']);
    expect(noToken.code).toBe(2);
    expect(noToken.err).toContain('--engine needs its launch token');
    const noEngine = await run(['--token', 'secret-token', 'status']);
    expect(noEngine.code).toBe(2);
    expect(noEngine.err).not.toContain('secret-token');
    expect((await run(['--engine', 'file:///etc', '--token', 't', 'status'])).code).toBe(2);
    const local = await run(['--engine', 'http://127.0.0.1:9/', '--token', 't', 'serve']);
    expect(local.code).toBe(2);
    expect(local.err).toContain('cuelab serve runs locally and does not take --engine');
  });

  it('says unreachable when the engine does not answer', async () => {
    const result = await run(['--engine', 'http://127.0.0.1:9/', '--token', 'secret', 'status']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('did not answer');
    expect(result.err).not.toContain('secret');
  });
});
