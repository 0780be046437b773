/**
 * Mechanism labels as CSV (App. P: human annotation of flipped reps). Export writes a study's
 * human labels (or every source's, for analysis) or a blank, blind labelling sheet for one
 * annotator; import reads human labels back.
 *
 * Import format: a header row, then one row per label. Required columns `rep_id`, `annotator`,
 * `label`; optional `sub_mode`, `rationale`, `source`; any other column (the context columns
 * export writes) is ignored. A row whose label, sub_mode and rationale are all empty is an
 * unlabelled sheet row and is skipped. Every other row must name a flipped rep, an annotator
 * name, a mechanism of that flip's kind (harmful: §3.3; helpful: App. F), a sub-mode only for
 * over-trust, and at most one row per (rep, annotator). A file with any bad row is rejected
 * whole, every bad row listed with its line number; nothing is stored.
 */
import { basename } from 'node:path';
import { EngineError } from '../errors';
import {
  findFlippedReps,
  type FlippedRep,
  humanLabelProblem,
  labellingQueue,
  type MechanismLabel,
} from '../metajudge';
import { formatCsvRecords, parseCsv, restoreFormula } from '../reports';
import { type Store } from '../store';
import {
  ANNOTATOR_PATTERN,
  listStudyLabels,
  saveLabels,
  type LabelInput,
} from '../store/faces/labels';
import { repOrigin } from '../store/faces/reps';

/** Columns export writes; the first five are what import reads. */
export const LABEL_CSV_COLUMNS = [
  'rep_id',
  'annotator',
  'label',
  'sub_mode',
  'rationale',
  'source',
  'kind',
  'item_id',
  'judge_id',
  'dataset',
] as const;

/** A rejected labels file: every bad row with its line number. */
export class LabelsImportError extends EngineError {
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(
      'bad_request',
      `${file}: ${problems.length} bad row${problems.length === 1 ? '' : 's'}; nothing was imported.`,
    );
    this.problems = problems;
  }
}

function contextCells(flip: FlippedRep | undefined): string[] {
  return [flip?.kind ?? '', flip?.itemId ?? '', flip?.judgeId ?? '', flip?.dataset ?? ''];
}

/** A study's labels as CSV: human labels (default), or every source's with `all`. */
export function exportLabelsCsv(
  store: Store,
  studyId: string,
  options: { all?: boolean } = {},
): string {
  const flips = new Map(findFlippedReps(store, studyId).map((flip) => [flip.repId, flip]));
  const labels = listStudyLabels(store, studyId).filter(
    (label) => options.all || label.source.startsWith('human:'),
  );
  const rows = labels.map((label) => [
    label.repId,
    label.source.startsWith('human:') ? label.source.slice(6) : '',
    label.label,
    label.subMode ?? '',
    label.rationale,
    label.source,
    ...contextCells(flips.get(label.repId)),
  ]);
  return formatCsvRecords([[...LABEL_CSV_COLUMNS], ...rows]);
}

/** A blank labelling sheet for one annotator: their unlabelled flips, in their blind order. */
export function labelSheetCsv(store: Store, studyId: string, annotator: string): string {
  if (!ANNOTATOR_PATTERN.test(annotator))
    throw new EngineError('bad_request', `"${annotator}" is not an annotator name.`);
  const queue = labellingQueue(store, studyId, annotator);
  const rows = queue.entries.map((entry) => [
    entry.repId,
    annotator,
    '',
    '',
    '',
    `human:${annotator}`,
    entry.kind,
    entry.itemId,
    entry.judgeId,
    entry.dataset,
  ]);
  return formatCsvRecords([[...LABEL_CSV_COLUMNS], ...rows]);
}

function flipIndex(store: Store, repIds: readonly string[]): Map<string, FlippedRep | null> {
  const index = new Map<string, FlippedRep | null>();
  const studies = new Set<string>();
  for (const repId of new Set(repIds)) {
    const studyId = repOrigin(store, repId)?.studyId;
    if (studyId) studies.add(studyId);
  }
  for (const studyId of studies)
    for (const flip of findFlippedReps(store, studyId)) index.set(flip.repId, flip);
  for (const repId of repIds) if (!index.has(repId)) index.set(repId, null);
  return index;
}

/** Parses and validates labels CSV text; `file` names it in messages. Throws LabelsImportError. */
export function parseLabelsCsv(
  store: Store,
  text: string,
  file = 'the labels file',
): { labels: LabelInput[]; skipped: number } {
  const { records, problems: csvProblems } = parseCsv(text);
  const problems = csvProblems.map((problem) => `line ${problem.line}: ${problem.message}`);
  const [header, ...rows] = records;
  if (!header) throw new LabelsImportError(file, ['the file is empty: it needs a header row']);
  const columns = header.fields.map((field) => field.trim().toLowerCase());
  const missing = ['rep_id', 'annotator', 'label'].filter((column) => !columns.includes(column));
  if (missing.length)
    throw new LabelsImportError(file, [
      `line ${header.line}: the header lacks ${missing.join(', ')}`,
    ]);
  const cell = (fields: string[], column: string) => {
    const at = columns.indexOf(column);
    // Export defused formula cells with a leading "'"; reading them back takes it off.
    return at < 0 ? '' : restoreFormula((fields[at] ?? '').trim());
  };
  const flips = flipIndex(
    store,
    rows.map((row) => cell(row.fields, 'rep_id')),
  );
  const labels: LabelInput[] = [];
  const seen = new Map<string, number>();
  let skipped = 0;
  for (const { line, fields } of rows) {
    const [repId, annotator, label, subMode, rationale, source] = [
      'rep_id',
      'annotator',
      'label',
      'sub_mode',
      'rationale',
      'source',
    ].map((column) => cell(fields, column)) as [string, string, string, string, string, string];
    if (!label && !subMode && !rationale) {
      skipped += 1;
      continue;
    }
    const bad = (message: string) => problems.push(`line ${line}: ${message}`);
    const flip = flips.get(repId);
    if (!repId) {
      bad('rep_id is empty');
      continue;
    }
    if (flip === null || flip === undefined) {
      bad(`rep ${repId} is not a flipped rep of any study in this workspace`);
      continue;
    }
    const problem = humanLabelProblem(flip.kind, annotator, label, subMode);
    if (problem) {
      bad(problem);
      continue;
    }
    if (source && source !== `human:${annotator}`) {
      bad(`source "${source}" is not a human label; import-labels takes human labels only`);
      continue;
    }
    const key = `${repId}\u0000${annotator}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      bad(`rep ${repId} is labelled by ${annotator} again (first on line ${earlier})`);
      continue;
    }
    seen.set(key, line);
    labels.push({
      repId,
      source: `human:${annotator}`,
      label: label as MechanismLabel,
      subMode: subMode || null,
      rationale,
      details: { importedFrom: basename(file), line },
    });
  }
  if (problems.length) throw new LabelsImportError(file, problems);
  return { labels, skipped };
}

/** What an import stored. */
export interface LabelsImportSummary {
  imported: number;
  skipped: number;
  annotators: string[];
}

/** Imports human labels from CSV text (all or nothing). */
export function importLabelsCsv(
  store: Store,
  text: string,
  file = 'the labels file',
): LabelsImportSummary {
  const { labels, skipped } = parseLabelsCsv(store, text, file);
  saveLabels(store, labels);
  const annotators = [...new Set(labels.map((label) => label.source.slice(6)))].sort();
  return { imported: labels.length, skipped, annotators };
}
