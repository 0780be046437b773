/**
 * The resume cache of provider calls (runner/call-cache.ts): each completed model call of a
 * job, stored the moment it returns under the job and its sequence number, with the request's
 * hash so a replay answers only the very same request.
 */
import { z } from 'zod';
import type { ModelResponse } from '../providers';
import { statement, type Store } from './database';
import { parseJsonColumn } from './json-column';

/**
 * A stored ModelResponse (providers/types.ts). Loose: the reasoning blocks and any field an
 * adapter adds travel back to the provider as they were recorded.
 */
const modelResponseSchema = z.looseObject({
  text: z.string(),
  toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string(), input: z.unknown() })),
  stopReason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'other']),
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }),
  model: z.string(),
  reasoningBlocks: z.array(z.unknown()).optional(),
});

/** One stored call of a job. */
export interface StoredProviderCall {
  requestHash: string;
  response: ModelResponse;
  attempts: number;
  temperatureSent: boolean;
}

/** Reads and writes one job's stored calls. */
export interface ProviderCallLog {
  /** The call at `seq`, or undefined when none is stored. */
  find(seq: number): StoredProviderCall | undefined;
  /** Stores (or replaces) the call at `seq`. */
  save(seq: number, call: StoredProviderCall): void;
  /** Forgets the calls from `seq` on (the environment changed; they no longer replay). */
  dropFrom(seq: number): void;
}

/** The stored calls of job `jobId` (the connection's cached statements: one job, three SQL). */
export function providerCallLog(store: Store, jobId: number): ProviderCallLog {
  const find = statement(
    store,
    'SELECT request_hash, response_json, attempts, temperature_sent FROM provider_calls WHERE job_id = ? AND seq = ?',
  );
  const save = statement(
    store,
    `INSERT OR REPLACE INTO provider_calls (job_id, seq, request_hash, response_json, attempts, temperature_sent, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const dropFrom = statement(store, 'DELETE FROM provider_calls WHERE job_id = ? AND seq >= ?');
  return {
    find(seq) {
      const row = find.get(jobId, seq) as
        | {
            request_hash: string;
            response_json: string;
            attempts: number;
            temperature_sent: number;
          }
        | undefined;
      if (!row) return undefined;
      const response: ModelResponse = parseJsonColumn(modelResponseSchema, row.response_json, {
        table: 'provider_calls',
        row: `${jobId}/${seq}`,
        field: 'response_json',
      });
      return {
        requestHash: row.request_hash,
        response,
        attempts: row.attempts,
        temperatureSent: row.temperature_sent === 1,
      };
    },
    save(seq, call) {
      save.run(
        jobId,
        seq,
        call.requestHash,
        JSON.stringify(call.response),
        call.attempts,
        call.temperatureSent ? 1 : 0,
        new Date().toISOString(),
      );
    },
    dropFrom(seq) {
      dropFrom.run(jobId, seq);
    },
  };
}
