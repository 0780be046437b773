/**
 * A study's prompt-cache share, from the usage its stored provider calls reported (the resume
 * cache keeps every call's response): input tokens in all, and those read from or written to the
 * provider's cache. Read at most every few seconds per study: progress is asked for often, and
 * a hit rate a moment old serves the Runs screen as well.
 */
import type { StudyProgress } from '../../../shared/study-progress';
import { statement, type Store } from './database';

type CacheStats = NonNullable<StudyProgress['promptCache']>;

const refreshMs = 3000;
type Memo = Map<string, { at: number; status: string; value: CacheStats | undefined }>;
const memo = new WeakMap<Store, Memo>();

function read(store: Store, studyId: string): CacheStats | undefined {
  const row = statement(
    store,
    `SELECT sum(json_extract(p.response_json, '$.usage.inputTokens')) AS input,
            sum(coalesce(json_extract(p.response_json, '$.usage.cacheReadTokens'), 0)) AS readTokens,
            sum(coalesce(json_extract(p.response_json, '$.usage.cacheWriteTokens'), 0)) AS writeTokens
       FROM provider_calls p JOIN jobs j ON j.id = p.job_id
      WHERE j.study_id = ?`,
  ).get(studyId) as { input: number | null; readTokens: number | null; writeTokens: number | null };
  if (!row.input) return undefined;
  return {
    inputTokens: row.input,
    readTokens: row.readTokens ?? 0,
    writeTokens: row.writeTokens ?? 0,
  };
}

/**
 * The study's cache share, or undefined before any call reported input tokens; read again after
 * 3 s, or at once when the study's `status` moved.
 */
export function promptCacheStats(
  store: Store,
  studyId: string,
  now = Date.now(),
  status = '',
): CacheStats | undefined {
  let byStudy = memo.get(store);
  if (!byStudy) {
    byStudy = new Map() as Memo;
    memo.set(store, byStudy);
  }
  const known = byStudy.get(studyId);
  if (known?.status === status && now - known.at < refreshMs) return known.value;
  const value = read(store, studyId);
  byStudy.set(studyId, { at: now, status, value });
  return value;
}
