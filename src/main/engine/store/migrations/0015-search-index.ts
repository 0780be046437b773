import type { Migration } from './types';

/**
 * Fixed here, since a shipped migration never changes: a text's document id in `search_texts`
 * is its rep's `search_reps.doc` times 2^20, plus 0 for the rationale or 1 + seq for message
 * `seq` (store/search-index.ts reads it back with `rowid >> 20`).
 */
const SPAN = 1048576;

/** SQL: the rationale of a final verdict's JSON text, NULL when it holds none or is not JSON. */
const rationaleOf = (json: string) =>
  `CASE WHEN json_valid(${json}) AND json_type(${json}, '$.rationale') = 'text'
     THEN json_extract(${json}, '$.rationale') END`;

/** SQL: the document base of rep `repId` (NULL when it has none). */
const docBase = (repId: string) =>
  `(SELECT doc * ${SPAN} FROM search_reps WHERE rep_id = ${repId})`;

/**
 * The full-text index of the workbench's search (store/search-index.ts): the rationale and
 * every stored message content of each rep, one FTS5 document per text. The index is
 * contentless (the texts stay where they are, compressed in text_blobs) with
 * contentless_delete, so a document goes by its rowid alone. `search_reps` numbers the reps
 * (an INTEGER PRIMARY KEY, so VACUUM keeps it), and its cascade from judge_reps takes a
 * deleted rep's documents with it.
 *
 * Triggers index each text in the transaction that writes it: the message's from the
 * judge_messages view (whose NEW.content is the plain text, before compacting), so nothing is
 * decompressed. What they index is what was bound, and the store redacts every bound value
 * (redacting-statements.ts), so keys never reach the index. Reps already stored are listed in
 * `search_pending` and indexed in batches after opening (fillSearchIndex), not here: a
 * migration runs in one transaction, and paper scale holds 1.4 M messages.
 *
 * Two indexes let a workbench page be read in order instead of sorting the study
 * (store/rep-query.ts): items by position, and a study's done jobs by item and the page's
 * tie-break columns; two more read a sort by turns or verdict in order; and one lets the judge
 * facet seek each judge instead of scanning.
 */
export const migration0015: Migration = {
  version: 15,
  name: 'search-index',
  sql: `
    CREATE INDEX study_items_by_position ON study_items (study_id, position, item_id);
    CREATE INDEX jobs_done_by_item
      ON jobs (study_id, item_id, condition_key, judge_id, direction, rep, rep_id)
      WHERE state = 'done';
    CREATE INDEX jobs_done_by_judge ON jobs (study_id, judge_id) WHERE state = 'done';
    CREATE INDEX judge_reps_by_turns ON judge_reps (study_id, turns);
    CREATE INDEX judge_reps_by_verdict ON judge_reps (
      study_id,
      coalesce(CASE WHEN json_valid(final_verdict_json)
                    THEN json_extract(final_verdict_json, '$.outcome') END, '~')
    );

    CREATE TABLE search_reps (
      doc INTEGER PRIMARY KEY,
      rep_id TEXT NOT NULL UNIQUE REFERENCES judge_reps(id) ON DELETE CASCADE
    ) STRICT;
    CREATE VIRTUAL TABLE search_texts USING fts5(
      text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TABLE search_pending (
      rep_id TEXT PRIMARY KEY REFERENCES judge_reps(id) ON DELETE CASCADE
    ) STRICT, WITHOUT ROWID;
    INSERT INTO search_pending (rep_id) SELECT id FROM judge_reps;

    CREATE TRIGGER search_reps_delete AFTER DELETE ON search_reps
    BEGIN
      DELETE FROM search_texts WHERE rowid BETWEEN OLD.doc * ${SPAN} AND OLD.doc * ${SPAN} + ${SPAN - 1};
    END;

    CREATE TRIGGER search_rep_insert AFTER INSERT ON judge_reps
    BEGIN
      INSERT INTO search_reps (rep_id) VALUES (NEW.id) ON CONFLICT (rep_id) DO NOTHING;
      INSERT INTO search_texts (rowid, text)
        SELECT ${docBase('NEW.id')}, ${rationaleOf('NEW.final_verdict_json')}
         WHERE ${rationaleOf('NEW.final_verdict_json')} IS NOT NULL;
    END;
    CREATE TRIGGER search_rep_update AFTER UPDATE OF final_verdict_json ON judge_reps
    BEGIN
      INSERT INTO search_reps (rep_id) VALUES (NEW.id) ON CONFLICT (rep_id) DO NOTHING;
      DELETE FROM search_texts WHERE rowid = ${docBase('NEW.id')};
      INSERT INTO search_texts (rowid, text)
        SELECT ${docBase('NEW.id')}, ${rationaleOf('NEW.final_verdict_json')}
         WHERE ${rationaleOf('NEW.final_verdict_json')} IS NOT NULL;
    END;

    CREATE TRIGGER search_message_insert INSTEAD OF INSERT ON judge_messages
      WHEN NEW.seq BETWEEN 0 AND ${SPAN - 2}
    BEGIN
      INSERT INTO search_reps (rep_id) VALUES (NEW.rep_id) ON CONFLICT (rep_id) DO NOTHING;
      DELETE FROM search_texts WHERE rowid = ${docBase('NEW.rep_id')} + 1 + NEW.seq;
      INSERT INTO search_texts (rowid, text)
        SELECT ${docBase('NEW.rep_id')} + 1 + NEW.seq, NEW.content
         WHERE NEW.content IS NOT NULL AND NEW.content <> '';
    END;
    CREATE TRIGGER search_message_update INSTEAD OF UPDATE ON judge_messages
      WHEN NEW.seq BETWEEN 0 AND ${SPAN - 2}
    BEGIN
      DELETE FROM search_texts WHERE rowid = ${docBase('OLD.rep_id')} + 1 + OLD.seq;
      INSERT INTO search_reps (rep_id) VALUES (NEW.rep_id) ON CONFLICT (rep_id) DO NOTHING;
      DELETE FROM search_texts WHERE rowid = ${docBase('NEW.rep_id')} + 1 + NEW.seq;
      INSERT INTO search_texts (rowid, text)
        SELECT ${docBase('NEW.rep_id')} + 1 + NEW.seq, NEW.content
         WHERE NEW.content IS NOT NULL AND NEW.content <> '';
    END;
    CREATE TRIGGER search_message_delete AFTER DELETE ON judge_message_rows
    BEGIN
      DELETE FROM search_texts WHERE rowid = ${docBase('OLD.rep_id')} + 1 + OLD.seq;
    END;
  `,
};
