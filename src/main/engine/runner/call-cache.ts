/**
 * Resumable provider calls. Every completed call of a job is stored (job, sequence number,
 * request hash, response) the moment it returns; when a job is run again after a crash, its
 * calls are answered from the store while the requests match, so no completed provider call
 * is ever repeated (issue 5). Tool calls re-run in a fresh environment, which for a
 * deterministic environment reproduces the same requests.
 */
import { requestHash, type ModelResponse } from '../providers';
import type { Store } from '../store';
import type { ModelCall } from '../judge';

/** Counters a caller can read after the rep (and tests can assert on). */
export interface CallCacheStats {
  replayed: number;
  called: number;
  /** A stored call whose request no longer matched (the environment changed). */
  mismatched: number;
}

/** Wraps `inner` so job `jobId`'s calls are stored and replayed in order. */
export function cachedModelCall(
  store: Store,
  jobId: number,
  inner: ModelCall,
): { call: ModelCall; stats: CallCacheStats } {
  const stats: CallCacheStats = { replayed: 0, called: 0, mismatched: 0 };
  const find = store.db.prepare(
    'SELECT request_hash, response_json, attempts, temperature_sent FROM provider_calls WHERE job_id = ? AND seq = ?',
  );
  const save = store.db.prepare(
    `INSERT OR REPLACE INTO provider_calls (job_id, seq, request_hash, response_json, attempts, temperature_sent, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const dropFrom = store.db.prepare('DELETE FROM provider_calls WHERE job_id = ? AND seq >= ?');
  let seq = 0;
  let diverged = false;
  const call: ModelCall = async (request, signal) => {
    const index = seq;
    seq += 1;
    const hash = requestHash(request);
    if (!diverged) {
      const stored = find.get(jobId, index) as
        | {
            request_hash: string;
            response_json: string;
            attempts: number;
            temperature_sent: number;
          }
        | undefined;
      if (stored && stored.request_hash === hash) {
        stats.replayed += 1;
        return {
          response: JSON.parse(stored.response_json) as ModelResponse,
          attempts: stored.attempts,
          temperatureSent: stored.temperature_sent === 1,
        };
      }
      if (stored) {
        stats.mismatched += 1;
        dropFrom.run(jobId, index);
      }
      diverged = true;
    }
    const result = await inner(request, signal);
    stats.called += 1;
    save.run(
      jobId,
      index,
      hash,
      JSON.stringify(result.response),
      result.attempts,
      result.temperatureSent ? 1 : 0,
      new Date().toISOString(),
    );
    return result;
  };
  return { call, stats };
}
