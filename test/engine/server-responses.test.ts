/**
 * In dev and test mode the server checks every answer against the contract's response schema
 * (response-check.ts): a handler that drifted fails loudly with the fields that are wrong,
 * instead of reaching a client that would drop it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validatesResponses } from '../../src/main/engine/api/response-check';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import { createLabClient } from '../../src/shared/lab-client';
import { makeTempDir } from '../helpers/temp-dir';

describe('response validation at the server', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let server: RunningServer;

  beforeAll(async () => {
    const rendererDir = join(dir.path, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>CueLab</title>');
    engine = createEngine({ path: join(dir.path, 'workspace'), source: 'flag' });
    // A handler that drifted from the contract: `version` went missing, `status` changed.
    const drifted = {
      ...engine,
      handlers: {
        ...engine.handlers,
        health: () => ({ status: 'fine', workspace: engine.workspace.path }) as never,
      },
    };
    server = await startServer({ engine: drifted, rendererDir });
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(async () => {
    await server.close();
    engine.close();
    dir.remove();
  });

  it('is on under test and with CUELAB_VALIDATE_RESPONSES=1, off in production', () => {
    expect(validatesResponses({ NODE_ENV: 'test' })).toBe(true);
    expect(validatesResponses({ NODE_ENV: 'development' })).toBe(true);
    expect(validatesResponses({ NODE_ENV: 'production', CUELAB_VALIDATE_RESPONSES: '1' })).toBe(
      true,
    );
    expect(validatesResponses({ NODE_ENV: 'production' })).toBe(false);
    expect(validatesResponses({})).toBe(false);
    expect(validatesResponses({ NODE_ENV: 'test', CUELAB_VALIDATE_RESPONSES: '0' })).toBe(false);
  });

  it('answers a bad response with a 500 naming every wrong field', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const response = await fetch(new URL('/api/health', server.address.baseUrl), {
      headers: { authorization: `Bearer ${server.address.token}` },
    });
    const body = (await response.json()) as {
      ok: boolean;
      error: { code: string; message: string; issues: { path: string }[] };
    };
    const logged = stderr.mock.calls.map(([text]) => String(text)).join('');
    stderr.mockRestore();
    expect(response.status).toBe(500);
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('internal');
    expect(body.error.message).toContain("The engine's answer to health does not match");
    expect(body.error.issues.map((issue) => issue.path).sort()).toEqual([
      'startedAt',
      'status',
      'version',
    ]);
    // It was loud where the engine runs, too.
    expect(logged).toContain("The engine's answer to health does not match");
  });

  it('lets good answers through unchanged', async () => {
    const client = createLabClient(server.address);
    const suites = await client.listSuites({});
    expect(suites.ok).toBe(true);
  });

  it('without the check a drifted answer reaches the client, which can only drop it', async () => {
    vi.stubEnv('CUELAB_VALIDATE_RESPONSES', '0');
    const result = await createLabClient(server.address).health({});
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });
});
