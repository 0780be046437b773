/**
 * Resumable provider calls. Every completed call of a job is stored (job, sequence number,
 * request hash, response) the moment it returns; when a job is run again after a crash, its
 * calls are answered from the store while the requests match, so no completed provider call
 * is ever repeated. Tool calls re-run in a fresh environment, which for a
 * deterministic environment reproduces the same requests.
 */
import { requestHash } from '../providers';
import { type Store } from '../store';
import { providerCallLog } from '../store/faces/jobs';
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
  const log = providerCallLog(store, jobId);
  let seq = 0;
  let diverged = false;
  const call: ModelCall = async (request, signal) => {
    const index = seq;
    seq += 1;
    const hash = requestHash(request);
    if (!diverged) {
      const stored = log.find(index);
      if (stored && stored.requestHash === hash) {
        stats.replayed += 1;
        return {
          response: stored.response,
          attempts: stored.attempts,
          temperatureSent: stored.temperatureSent,
        };
      }
      if (stored) {
        stats.mismatched += 1;
        log.dropFrom(index);
      }
      diverged = true;
    }
    const result = await inner(request, signal);
    stats.called += 1;
    log.save(index, {
      requestHash: hash,
      response: result.response,
      attempts: result.attempts,
      temperatureSent: result.temperatureSent,
    });
    return result;
  };
  return { call, stats };
}
