/**
 * Mechanism labels and annotators (migration 4): one label per (rep, source). The diff
 * classifier, each meta-judge voter, the ensemble, human annotators and the synthetic judge's
 * true mechanism each write under their own source, so each can be reported alone (App. P).
 */
import { EngineError } from '../errors';
import {
  isLabelSource,
  isStoredLabel,
  type LabelSource,
  type StoredLabel,
} from '../mechanism-labels';
import type { Store } from './database';
import { readJsonColumn } from './json-column';

/** A label to store. */
export interface LabelInput {
  repId: string;
  source: LabelSource;
  label: StoredLabel;
  subMode?: string | null;
  rationale?: string;
  /** Anything the source wants kept (diff measures, a voter's raw answer, evidence lines). */
  details?: unknown;
}

/** A stored label. */
export interface LabelRecord {
  repId: string;
  source: LabelSource;
  label: StoredLabel;
  subMode: string | null;
  rationale: string;
  details: unknown;
  createdAt: string;
}

interface LabelRow {
  rep_id: string;
  source: string;
  label: string;
  sub_mode: string | null;
  rationale: string;
  details_json: string;
  created_at: string;
}

/** Annotator names: letters, digits, space, ".", "_" and "-", up to 64 characters. */
export const ANNOTATOR_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

function toRecord(row: LabelRow): LabelRecord {
  return {
    repId: row.rep_id,
    source: row.source as LabelSource,
    label: row.label as StoredLabel,
    subMode: row.sub_mode,
    rationale: row.rationale,
    details: readJsonColumn(row.details_json, {
      table: 'mechanism_labels',
      row: `${row.rep_id}/${row.source}`,
      field: 'details_json',
    }),
    createdAt: row.created_at,
  };
}

/** Stores labels (replacing any earlier label of the same rep and source) in one transaction. */
export function saveLabels(store: Store, labels: readonly LabelInput[]): void {
  const insert = store.db.prepare(
    `INSERT INTO mechanism_labels (rep_id, source, label, sub_mode, rationale, details_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (rep_id, source) DO UPDATE SET label = excluded.label, sub_mode = excluded.sub_mode,
       rationale = excluded.rationale, details_json = excluded.details_json, created_at = excluded.created_at`,
  );
  const now = new Date().toISOString();
  store.db.transaction(() => {
    for (const entry of labels) {
      if (!isLabelSource(entry.source))
        throw new EngineError('bad_request', `"${String(entry.source)}" is not a label source.`);
      if (!isStoredLabel(entry.label))
        throw new EngineError('bad_request', `"${String(entry.label)}" is not a mechanism label.`);
      const annotator = entry.source.startsWith('human:') ? entry.source.slice(6) : null;
      if (annotator !== null) addAnnotator(store, annotator);
      insert.run(
        entry.repId,
        entry.source,
        entry.label,
        entry.subMode ?? null,
        entry.rationale ?? '',
        JSON.stringify(entry.details ?? {}),
        now,
      );
    }
  })();
}

/** Registers an annotator (idempotent); throws on a name that is not allowed. */
export function addAnnotator(store: Store, name: string): void {
  if (!ANNOTATOR_PATTERN.test(name))
    throw new EngineError(
      'bad_request',
      `"${name}" is not an annotator name: use letters, digits, space, ".", "_" or "-" (at most 64).`,
    );
  store.db
    .prepare(
      'INSERT INTO annotators (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
    )
    .run(name, new Date().toISOString());
}

/** Annotator names, alphabetically. */
export function listAnnotators(store: Store): string[] {
  return (
    store.db.prepare('SELECT name FROM annotators ORDER BY name').all() as { name: string }[]
  ).map((row) => row.name);
}

/** Every label of a study's reps, optionally of some sources only, by rep then source. */
export function listStudyLabels(
  store: Store,
  studyId: string,
  sources?: readonly string[],
): LabelRecord[] {
  const rows = store.db
    .prepare(
      `SELECT l.* FROM mechanism_labels l JOIN judge_reps r ON r.id = l.rep_id
        WHERE r.study_id = ? ORDER BY l.rep_id, l.source`,
    )
    .all(studyId) as LabelRow[];
  return rows.filter((row) => !sources || sources.includes(row.source)).map((row) => toRecord(row));
}

/** The labels of one rep, by source. */
export function labelsForRep(store: Store, repId: string): LabelRecord[] {
  const rows = store.db
    .prepare('SELECT * FROM mechanism_labels WHERE rep_id = ? ORDER BY source')
    .all(repId) as LabelRow[];
  return rows.map((row) => toRecord(row));
}

/**
 * Replaces every label of one rep whose source starts with `prefix` (e.g. `voter:`) by
 * `labels`, in one transaction: the stored voters are exactly those behind a new ensemble label.
 */
export function replaceRepLabels(
  store: Store,
  repId: string,
  prefix: string,
  labels: readonly LabelInput[],
): void {
  store.db.transaction(() => {
    store.db
      .prepare(`DELETE FROM mechanism_labels WHERE rep_id = ? AND substr(source, 1, ?) = ?`)
      .run(repId, prefix.length, prefix);
    saveLabels(store, labels);
  })();
}
