import type { Migration } from './types';

/**
 * Texts shorter than this stay inline: a blob row, its 32-byte key and index entry cost more
 * than a short text saves. Fixed here, since a shipped migration never changes.
 */
const INLINE = 64;

/** SQL: the text of `inline` (short, in the row) or of `blob` (joined as `b`). */
const either = (inline: string, blob: string) =>
  `CASE WHEN ${blob} IS NULL THEN ${inline} ELSE cuelab_text_unpack(b.body) END`;

/** SQL: store `text` as a blob unless it is short or already stored. */
const putBlob = (text: string) => `
  INSERT INTO text_blobs (hash, body)
    SELECT cuelab_text_hash(${text}), cuelab_text_pack(${text})
     WHERE length(${text}) >= ${INLINE}
       AND NOT EXISTS (SELECT 1 FROM text_blobs WHERE hash = cuelab_text_hash(${text}));`;

/** SQL: the inline value and the blob id of `text`, for a row's (inline, blob) column pair. */
const inlinePart = (text: string) => `CASE WHEN length(${text}) < ${INLINE} THEN ${text} END`;
const blobPart = (text: string) =>
  `CASE WHEN length(${text}) >= ${INLINE}
     THEN (SELECT id FROM text_blobs WHERE hash = cuelab_text_hash(${text})) END`;

const TOOL_CALL_COLUMNS = [
  'rep_id',
  'seq',
  'turn',
  'call_id',
  'name',
  'input_json',
  'output',
  'is_error',
  'duration_ms',
  'result_number',
  'stop_directive',
];
const MESSAGE_COLUMNS = [
  'rep_id',
  'seq',
  'role',
  'content',
  'tool_calls_json',
  'tool_call_id',
  'tool_name',
  'is_error',
];

/**
 * SQL: view `view` over the compact table `table` (keyed by rep_id, seq), with the columns
 * `columns` in order, where column `text` is stored inline or as `<text>_blob`; and the
 * triggers that let it be written like the table it replaces (`defaults`: the old table's
 * column defaults, which an insert through a view would otherwise bind as NULL).
 */
function compactView(
  view: string,
  table: string,
  columns: string[],
  text: string,
  defaults: Record<string, string> = {},
): string {
  const blob = `${text}_blob`;
  const others = columns.filter((column) => column !== text);
  const read = columns.map((column) =>
    column === text ? `${either(`t.${text}`, `t.${blob}`)} AS ${text}` : `t.${column}`,
  );
  const stored = [
    ...others.map((column) =>
      defaults[column] ? `coalesce(NEW.${column}, ${defaults[column]})` : `NEW.${column}`,
    ),
    inlinePart(`NEW.${text}`),
    blobPart(`NEW.${text}`),
  ];
  const assign = [...others, text, blob].map(
    (column, index) => `${column} = ${stored[index] ?? 'NULL'}`,
  );
  return `
    CREATE VIEW ${view} AS
      SELECT ${read.join(', ')}
        FROM ${table} t LEFT JOIN text_blobs b ON b.id = t.${blob};
    CREATE TRIGGER ${view}_insert INSTEAD OF INSERT ON ${view}
    BEGIN
      ${putBlob(`NEW.${text}`)}
      INSERT INTO ${table} (${[...others, text, blob].join(', ')}) VALUES (${stored.join(', ')});
    END;
    CREATE TRIGGER ${view}_update INSTEAD OF UPDATE ON ${view}
    BEGIN
      ${putBlob(`NEW.${text}`)}
      UPDATE ${table} SET ${assign.join(', ')} WHERE rep_id = OLD.rep_id AND seq = OLD.seq;
    END;
    CREATE TRIGGER ${view}_delete INSTEAD OF DELETE ON ${view}
    BEGIN
      DELETE FROM ${table} WHERE rep_id = OLD.rep_id AND seq = OLD.seq;
    END;`;
}

/** SQL: the version-10 table's rows into the view that replaced it, in their order; then drop it. */
const copyRows = (view: string, columns: string[]) => `
  INSERT INTO ${view} (${columns.join(', ')})
    SELECT ${columns.join(', ')} FROM ${view}_v10 ORDER BY rowid;
  DROP TABLE ${view}_v10;`;

/**
 * Compact rep texts (store/text-blobs.ts): tool outputs, message contents, system prompts and
 * tool lists of 64+ characters are stored once per distinct text in `text_blobs` (sha256 key,
 * brotli body), and rows point at them. `judge_tool_calls` and `judge_messages` become views
 * over the compact tables with the same columns, so every reader and writer (the runner, the
 * replay, bundles, search) sees the rows it always saw; their insert and update triggers do
 * the compacting. The compact tables are keyed by (rep_id, seq) WITHOUT ROWID: the old tables
 * held that key twice (rowid table plus its primary-key index), 1.6 KB per rep at paper scale.
 * judge_reps keeps its row (reports read its compact columns and never a blob); its system
 * prompt and tool list move to blobs, the text columns left '' with the blob id beside them
 * (`X_blob` beside `X`, so the open check's JSON scan knows an emptied `tools_json`).
 *
 * Existing rows are copied through the views in this one transaction: a crash leaves the
 * workspace at version 10 as it was, and the next open runs the step again from the start.
 */
export const migration0011: Migration = {
  version: 11,
  name: 'compact-texts',
  vacuumAfter: true,
  sql: `
    CREATE TABLE text_blobs (
      id INTEGER PRIMARY KEY,
      hash BLOB NOT NULL UNIQUE,
      body BLOB NOT NULL
    ) STRICT;

    ALTER TABLE judge_tool_calls RENAME TO judge_tool_calls_v10;
    ALTER TABLE judge_messages RENAME TO judge_messages_v10;

    CREATE TABLE judge_tool_call_rows (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      turn INTEGER NOT NULL,
      call_id TEXT NOT NULL,
      name TEXT NOT NULL,
      input_json TEXT NOT NULL,
      output TEXT,
      output_blob INTEGER REFERENCES text_blobs(id),
      is_error INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      result_number INTEGER NOT NULL,
      stop_directive INTEGER NOT NULL,
      PRIMARY KEY (rep_id, seq),
      CHECK ((output IS NULL) <> (output_blob IS NULL))
    ) STRICT, WITHOUT ROWID;

${compactView('judge_tool_calls', 'judge_tool_call_rows', TOOL_CALL_COLUMNS, 'output')}

    CREATE TABLE judge_message_rows (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      content TEXT,
      content_blob INTEGER REFERENCES text_blobs(id),
      tool_calls_json TEXT,
      tool_call_id TEXT,
      tool_name TEXT,
      is_error INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (rep_id, seq),
      CHECK ((content IS NULL) <> (content_blob IS NULL))
    ) STRICT, WITHOUT ROWID;

${compactView('judge_messages', 'judge_message_rows', MESSAGE_COLUMNS, 'content', { is_error: '0' })}

    ${copyRows('judge_tool_calls', TOOL_CALL_COLUMNS)}
    ${copyRows('judge_messages', MESSAGE_COLUMNS)}

    ALTER TABLE judge_reps ADD COLUMN system_prompt_blob INTEGER REFERENCES text_blobs(id);
    ALTER TABLE judge_reps ADD COLUMN tools_json_blob INTEGER REFERENCES text_blobs(id);
    CREATE TRIGGER judge_reps_texts AFTER INSERT ON judge_reps
      WHEN length(NEW.system_prompt) >= ${INLINE} OR length(NEW.tools_json) >= ${INLINE}
    BEGIN
      ${putBlob('NEW.system_prompt')}
      ${putBlob('NEW.tools_json')}
      UPDATE judge_reps SET
          system_prompt_blob = coalesce(${blobPart('NEW.system_prompt')}, NEW.system_prompt_blob),
          system_prompt = CASE WHEN length(NEW.system_prompt) >= ${INLINE} THEN ''
                               ELSE NEW.system_prompt END,
          tools_json_blob = coalesce(${blobPart('NEW.tools_json')}, NEW.tools_json_blob),
          tools_json = CASE WHEN length(NEW.tools_json) >= ${INLINE} THEN ''
                            ELSE NEW.tools_json END
        WHERE rowid = NEW.rowid;
    END;
    INSERT INTO text_blobs (hash, body)
      SELECT cuelab_text_hash(text), cuelab_text_pack(text)
        FROM (SELECT system_prompt AS text FROM judge_reps WHERE length(system_prompt) >= ${INLINE}
              UNION SELECT tools_json FROM judge_reps WHERE length(tools_json) >= ${INLINE})
       WHERE true
      ON CONFLICT (hash) DO NOTHING;
    UPDATE judge_reps SET system_prompt_blob = ${blobPart('system_prompt')}, system_prompt = ''
     WHERE length(system_prompt) >= ${INLINE};
    UPDATE judge_reps SET tools_json_blob = ${blobPart('tools_json')}, tools_json = ''
     WHERE length(tools_json) >= ${INLINE};
  `,
};
