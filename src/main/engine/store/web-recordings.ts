/**
 * A rep's live web recording (substrates/web/live.ts): written in the transaction that
 * stores the rep, read back (and parsed: it is on disk) to replay the rep offline.
 */
import { webRecordingSchema, type WebRecording } from '../environments';
import { statement, type Store } from './database';
import { parseJsonColumn } from './json-column';

/** Stores what the live web answered during rep `repId`. */
export function saveWebRecording(store: Store, repId: string, recording: WebRecording): void {
  statement(
    store,
    'INSERT OR REPLACE INTO judge_rep_web (rep_id, recording_json) VALUES (?, ?)',
  ).run(repId, JSON.stringify(recording));
}

/** The recording of rep `repId`, or undefined when it used no live web. */
export function loadWebRecording(store: Store, repId: string): WebRecording | undefined {
  const row = store.db
    .prepare('SELECT recording_json FROM judge_rep_web WHERE rep_id = ?')
    .get(repId) as { recording_json: string } | undefined;
  if (!row) return undefined;
  return parseJsonColumn(webRecordingSchema, row.recording_json, {
    table: 'judge_rep_web',
    row: repId,
    field: 'recording_json',
  });
}
