/**
 * Key redaction runs on every string a served engine binds to a statement, so a stranger's
 * 1 MB argument is redacted on the engine thread. With a quadratic key shape a 180 KB
 * `resolveStudy` reference froze every other API call for 54 s; here a real `cuelab serve`
 * gets near-1 MB hostile references and must answer a health call meanwhile, and answer the
 * hostile call itself with the ordinary "no such study".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxJsonBodyBytes } from '../../src/shared/transport-limits';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { makeTempDir } from '../helpers/temp-dir';

/** `unit` repeated to just under the request body limit (JSON quoting included). */
function nearLimit(unit: string): string {
  return unit.repeat(Math.floor((maxJsonBodyBytes - 4096) / unit.length));
}

describe('a served engine redacting a hostile argument', { timeout: 120_000 }, () => {
  const dir = makeTempDir();
  let serve: ServeProcess;

  beforeAll(async () => {
    serve = await startServeProcess(dir.path);
    expect((await serve.lab.health({})).ok).toBe(true);
    // One harmless 1 MB reference first, so the timing is of redaction, not of a cold engine.
    expect((await serve.lab.resolveStudy({ reference: nearLimit('x') })).ok).toBe(false);
  });
  afterAll(async () => {
    await serve.stop();
    dir.remove();
  });

  for (const unit of ['sk-', 'sk-ant-', 'AKIA', 'Bearer ', 'hf_', 'xai-', 'ghp_', 'AIza ']) {
    it(`answers health within 1 s while resolving a 1 MB reference of "${unit}"`, async () => {
      const reference = nearLimit(unit);
      expect(reference.length).toBeGreaterThan(1_000_000);
      let settled = false;
      const hostile = serve.lab.resolveStudy({ reference }).finally(() => (settled = true));
      // Health calls for as long as the hostile call is in flight: a thread busy redacting for
      // longer than a second shows in one of them.
      const latencies: number[] = [];
      do {
        const sent = performance.now();
        expect((await serve.lab.health({})).ok).toBe(true);
        latencies.push(performance.now() - sent);
      } while (!settled);
      const answer = await hostile;
      expect(Math.max(...latencies)).toBeLessThan(1000);
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe('not_found');
    });
  }
});
