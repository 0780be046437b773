/**
 * The results-import format: per-rep verdict records from any harness, as CSV (header row
 * required) or JSONL (one object per line). Columns: `item_id, dataset, judge, condition,
 * cue_direction, rep, verdict, score, gold, dimension, turns`; `condition` is `uncued` for the
 * control arm (§3.1); `verdict` is pass|fail on binary dimensions, `score` 1–100 on graded ones
 * (App. G, Table 7); `gold` pass|fail or empty, one per item and dimension (on a graded
 * dimension the consensus gold, App. G's noisy ground truth: pass when the work is good on it);
 * `dimension` defaults to `task_success`.
 *
 * Optional columns that feed particular tables: `simulated` (true for synthetic-judge data),
 * `placement`, `mitigation`, `cue_label` (placement and mitigation tables; mitigations pair a
 * mitigated condition with the unmitigated one of the same cue label and placement),
 * `categories_present` and `taxonomy_size` (error attribution, §3.2). Any other column is kept
 * as it came.
 *
 * Our rules: a row with neither verdict nor score is a rep that produced no valid verdict (it
 * counts as invalid, majority.ts); a row may not carry both; on the paper's dimensions the scale
 * is enforced; the control arm has no cue direction; two rows may not describe the same rep;
 * and the rows of one item and dimension must agree on its gold label.
 */
import { z } from 'zod';
import { DIMENSIONS } from '../paper';
import { jsonErrorMessage } from '../input-limits';
import { type BinaryVerdict, type CueDirection, UNCUED_CONDITION } from '../analysis';
import { parseCsv } from './csv';
import { judgeNameProblem } from '../../../shared/judge-names';
import { choice, flag, number, optionalText, show, text, wholeAtLeast } from './results-fields';
import { knownResultColumns, requiredResultColumns } from '../../../shared/results-columns';

/** The two file formats. */
export type ResultsFormat = 'csv' | 'jsonl';

/** One validated record. */
export interface ImportedRep {
  /** Line of the file the record starts on. */
  readonly line: number;
  readonly itemId: string;
  readonly dataset: string;
  readonly judge: string;
  readonly condition: string;
  readonly cueDirection: CueDirection | null;
  readonly rep: number;
  readonly verdict: BinaryVerdict | null;
  readonly score: number | null;
  readonly gold: BinaryVerdict | null;
  readonly dimension: string;
  readonly turns: number | null;
  /** Recognised optional columns that were present, then every other column as it came. */
  readonly extra: Record<string, unknown>;
  readonly simulated: boolean;
}

/** Validated records, or the reasons the file is rejected (one line per bad row or conflict). */
export interface ParsedResults {
  readonly reps: ImportedRep[];
  readonly problems: string[];
}

/** Columns every file must have, and the columns with a meaning (the rest is kept in `extra`). */
const REQUIRED_COLUMNS = requiredResultColumns;
const KNOWN_COLUMNS = knownResultColumns;

/** The optional columns stored in `extra` under their own names. */
const OPTIONAL_EXTRA = [
  'simulated',
  'placement',
  'mitigation',
  'cue_label',
  'categories_present',
  'taxonomy_size',
] as const;

const known = new Set<string>(KNOWN_COLUMNS);

const scaleOf = new Map(DIMENSIONS.map((dimension) => [dimension.id as string, dimension.scale]));

/** One record's recognised columns (CSV cells are text, JSONL values may be numbers). */
const recordSchema = z
  .object({
    item_id: text(),
    dataset: text(),
    judge: text(),
    condition: text(),
    cue_direction: choice(['severity', 'leniency']),
    rep: number('a whole number ≥ 0', wholeAtLeast(0)).pipe(z.number({ error: 'required' })),
    verdict: choice(['pass', 'fail']),
    score: number('a number from 1 to 100', (value) => value >= 1 && value <= 100),
    gold: choice(['pass', 'fail']),
    dimension: optionalText(),
    turns: number('a whole number ≥ 0', wholeAtLeast(0)),
    simulated: flag,
    placement: optionalText(),
    mitigation: optionalText(),
    cue_label: optionalText(),
    categories_present: number('a whole number ≥ 0', wholeAtLeast(0)),
    taxonomy_size: number('a whole number ≥ 1', wholeAtLeast(1)),
  })
  .superRefine((record, context) => {
    const fail = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    const dimension = record.dimension ?? 'task_success';
    // The same rule as a study spec's judge ids (shared/judge-names.ts).
    const judgeProblem = judgeNameProblem(record.judge);
    if (judgeProblem) fail('judge', judgeProblem);
    if (record.condition === UNCUED_CONDITION && record.cue_direction !== undefined)
      fail(
        'cue_direction',
        `the uncued control arm has no cue direction, got ${show(record.cue_direction)}`,
      );
    if (record.verdict !== undefined && record.score !== undefined)
      fail('score', 'give a verdict (binary dimensions) or a score (graded ones), not both');
    else if (scaleOf.get(dimension) === 'binary' && record.score !== undefined)
      fail('score', `${dimension} is a binary dimension: put pass or fail in the verdict column`);
    else if (scaleOf.get(dimension) === 'graded' && record.verdict !== undefined)
      fail('verdict', `${dimension} is graded 1–100: put the score in the score column`);
    if (record.categories_present !== undefined && record.taxonomy_size === undefined)
      fail('taxonomy_size', 'required with categories_present');
    if (
      record.categories_present !== undefined &&
      record.taxonomy_size !== undefined &&
      record.categories_present > record.taxonomy_size
    )
      fail('categories_present', `${record.categories_present} exceeds taxonomy_size`);
  });

/** A record before validation: its line and its cells by column name. */
interface RawRecord {
  readonly line: number;
  readonly cells: Record<string, unknown>;
}

/** Canonical name of a column: the known names match case-insensitively. */
function columnName(header: string): string {
  const trimmed = header.trim();
  const lower = trimmed.toLowerCase();
  return known.has(lower) ? lower : trimmed;
}

/** A reason the file is rejected; `line` 0 for the file as a whole. */
interface Problem {
  readonly line: number;
  readonly text: string;
}

function problemAt(line: number, text: string): Problem {
  return { line, text: `line ${line}: ${text}` };
}

function csvRecords(body: string, problems: Problem[]): RawRecord[] {
  const { records, problems: malformed } = parseCsv(body);
  problems.push(...malformed.map((problem) => problemAt(problem.line, problem.message)));
  const [header, ...rows] = records;
  if (!header) {
    problems.push({ line: 0, text: 'the file has no header row' });
    return [];
  }
  const names = header.fields.map(columnName);
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') problems.push(problemAt(header.line, 'the header has an empty column name'));
    else if (seen.has(name))
      problems.push(problemAt(header.line, `the header names column "${name}" twice`));
    seen.add(name);
  }
  const missing = REQUIRED_COLUMNS.filter((name) => !seen.has(name));
  if (missing.length) {
    const list = missing.map((name) => `"${name}"`).join(', ');
    problems.push(
      problemAt(
        header.line,
        `the header has no ${list} column${missing.length > 1 ? 's' : ''} ` +
          `(required: ${REQUIRED_COLUMNS.join(', ')})`,
      ),
    );
  }
  const out: RawRecord[] = [];
  for (const row of rows) {
    if (row.fields.length !== names.length) {
      problems.push(
        problemAt(
          row.line,
          `${row.fields.length} fields, but the header has ${names.length} columns`,
        ),
      );
      continue;
    }
    const cells: Record<string, unknown> = {};
    names.forEach((name, index) => (cells[name] = row.fields[index]));
    out.push({ line: row.line, cells });
  }
  return out;
}

function jsonlRecords(body: string, problems: Problem[]): RawRecord[] {
  const out: RawRecord[] = [];
  body.split(/\r\n|\n|\r/).forEach((content, index) => {
    const line = index + 1;
    if (content.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      problems.push(problemAt(line, `not valid JSON (${jsonErrorMessage(error)})`));
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(problemAt(line, `expected a JSON object, got ${show(value)}`));
      return;
    }
    const cells: Record<string, unknown> = {};
    for (const [key, cell] of Object.entries(value)) cells[columnName(key)] = cell;
    out.push({ line, cells });
  });
  return out;
}

function validate(raw: RawRecord): ImportedRep | Problem {
  const parsed = recordSchema.safeParse(raw.cells);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'row'}: ${issue.message}`,
    );
    return problemAt(raw.line, reasons.join('; '));
  }
  const record = parsed.data;
  const extra: Record<string, unknown> = {};
  for (const name of OPTIONAL_EXTRA) {
    if (record[name] !== undefined && (name !== 'simulated' || name in raw.cells))
      extra[name] = record[name];
  }
  for (const [name, cell] of Object.entries(raw.cells)) if (!known.has(name)) extra[name] = cell;
  return {
    line: raw.line,
    itemId: record.item_id,
    dataset: record.dataset,
    judge: record.judge,
    condition: record.condition,
    cueDirection: record.cue_direction ?? null,
    rep: record.rep,
    verdict: record.verdict ?? null,
    score: record.score ?? null,
    gold: record.gold ?? null,
    dimension: record.dimension ?? 'task_success',
    turns: record.turns ?? null,
    extra,
    simulated: record.simulated,
  };
}

/** Rows that contradict each other: the same rep twice, gold labels, a dimension's scale. */
function conflicts(reps: readonly ImportedRep[]): string[] {
  const problems: string[] = [];
  const repLines = new Map<string, number>();
  const gold = new Map<string, { gold: BinaryVerdict; line: number }>();
  const reported = new Set<string>();
  const scale = new Map<string, { kind: 'verdict' | 'score'; line: number }>();
  const datasetsOf = new Map<string, Set<string>>();
  for (const rep of reps) {
    const datasets = datasetsOf.get(rep.itemId) ?? new Set<string>();
    datasets.add(rep.dataset);
    datasetsOf.set(rep.itemId, datasets);
  }
  const itemName = (rep: ImportedRep) =>
    (datasetsOf.get(rep.itemId)?.size ?? 0) > 1 ? `${rep.dataset}/${rep.itemId}` : rep.itemId;
  for (const rep of reps) {
    const key = JSON.stringify([
      rep.dataset,
      rep.itemId,
      rep.judge,
      rep.condition,
      rep.cueDirection,
      rep.dimension,
      rep.rep,
    ]);
    const earlier = repLines.get(key);
    if (earlier !== undefined)
      problems.push(
        `line ${rep.line}: the same rep as line ${earlier} (item, judge, condition, cue direction, dimension and rep)`,
      );
    else repLines.set(key, rep.line);

    // Each dimension has its own gold (App. G: a graded one's is the consensus noisy gold).
    const item = JSON.stringify([rep.dataset, rep.itemId, rep.dimension]);
    if (rep.gold !== null) {
      const first = gold.get(item);
      if (!first) gold.set(item, { gold: rep.gold, line: rep.line });
      else if (first.gold !== rep.gold && !reported.has(item)) {
        reported.add(item);
        problems.push(
          `item ${itemName(rep)}${rep.dimension === 'task_success' ? '' : ` (${rep.dimension})`}: ` +
            `gold ${first.gold} on line ${first.line} but ${rep.gold} on line ${rep.line}`,
        );
      }
    }

    const kind = rep.verdict !== null ? 'verdict' : rep.score !== null ? 'score' : null;
    if (kind) {
      const first = scale.get(rep.dimension);
      if (!first) scale.set(rep.dimension, { kind, line: rep.line });
      else if (first.kind !== kind && !reported.has(`dimension:${rep.dimension}`)) {
        reported.add(`dimension:${rep.dimension}`);
        const name = (entry: 'verdict' | 'score') =>
          entry === 'verdict' ? 'a pass/fail verdict' : 'a score';
        problems.push(
          `dimension ${rep.dimension}: ${name(first.kind)} on line ${first.line} but ${name(kind)} on line ${rep.line}`,
        );
      }
    }
  }
  return problems;
}

/** Parses and validates a whole file; `problems` is empty exactly when every row is good. */
export function parseResults(content: string, format: ResultsFormat): ParsedResults {
  const body = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const problems: Problem[] = [];
  const raw = format === 'csv' ? csvRecords(body, problems) : jsonlRecords(body, problems);
  const reps: ImportedRep[] = [];
  for (const record of raw) {
    const result = validate(record);
    if ('text' in result) problems.push(result);
    else reps.push(result);
  }
  // Sorted by line (stable), then the conflicts between otherwise good rows.
  const listed = problems.sort((a, b) => a.line - b.line).map((problem) => problem.text);
  listed.push(...conflicts(reps));
  if (listed.length === 0 && reps.length === 0) listed.push('the file has no rows');
  return { reps: listed.length ? [] : reps, problems: listed };
}

/** The format a file is in: by extension, else by its first character. */
export function detectFormat(fileName: string, content: string): ResultsFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  return content
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'jsonl'
    : 'csv';
}
