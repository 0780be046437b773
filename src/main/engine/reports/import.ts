/**
 * `cuelab import-results`: a file of per-rep verdict records (results-parse.ts) becomes a study
 * that every report and chart shows like a native one. All or nothing: a file with any bad row
 * or conflict is rejected whole and nothing is written; a good file is stored in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { EngineError } from '../errors';
import { checkRowCount, countLines, readLimitedText } from '../input-limits';
import { type Store } from '../store';
import { saveImportedStudy } from '../store/faces/studies';
import type { ImportedRep, ResultsFormat } from './results-parse';
import { detectFormat, parseResults } from './results-parse';

/** Why a file was rejected: every bad row and conflict, one line each. */
export class ResultsImportError extends EngineError {
  override name = 'ResultsImportError';
  /** One line per bad row (`line 7: verdict: expected pass or fail, got "yes"`) or conflict. */
  readonly problems: readonly string[];

  constructor(fileName: string, problems: readonly string[]) {
    const count = problems.length;
    super(
      'bad_request',
      `${fileName} was not imported: ${count} problem${count === 1 ? '' : 's'}; nothing was stored.`,
    );
    this.problems = problems;
  }
}

/** What the import stored. */
export interface ImportSummary {
  readonly studyId: string;
  readonly name: string;
  readonly format: ResultsFormat;
  readonly reps: number;
  readonly items: number;
  readonly judges: number;
  readonly conditions: string[];
  readonly simulated: boolean;
  /** Things that will leave tables empty (no control arm, no gold labels). */
  readonly warnings: string[];
}

/** What an import reads: file content with its name (the file is not read here). */
export interface ResultsSource {
  readonly fileName: string;
  readonly content: string;
  /** Study name; default the file name. */
  readonly name?: string;
  /** Default: from the extension, else the first character. */
  readonly format?: ResultsFormat;
}

/** The spec recorded for an imported study (studies.spec_json). */
export interface ImportedStudySpec {
  readonly kind: 'imported-results';
  readonly source: { readonly file: string; readonly format: ResultsFormat; readonly rows: number };
  readonly importedAt: string;
}

function warningsFor(reps: readonly ImportedRep[]): string[] {
  const warnings: string[] = [];
  if (!reps.some((rep) => rep.condition === 'uncued'))
    warnings.push('no row has condition "uncued" (the control arm): flip tables will be empty');
  if (!reps.some((rep) => rep.condition !== 'uncued'))
    warnings.push('every row is in the control arm: there is no cued condition to compare');
  if (reps.some((rep) => rep.verdict !== null) && !reps.some((rep) => rep.gold !== null))
    warnings.push('no row has a gold label: gold-gated rates (flips, accuracy) will be empty');
  return warnings;
}

/** Validates and stores a results file as an imported study; throws ResultsImportError. */
export function importResults(store: Store, source: ResultsSource): ImportSummary {
  const format = source.format ?? detectFormat(source.fileName, source.content);
  const { reps, problems } = parseResults(source.content, format);
  if (problems.length) throw new ResultsImportError(source.fileName, problems);

  const id = randomUUID();
  const now = new Date().toISOString();
  const name = source.name ?? source.fileName;
  const simulated = reps.some((rep) => rep.simulated);
  const spec: ImportedStudySpec = {
    kind: 'imported-results',
    source: { file: source.fileName, format, rows: reps.length },
    importedAt: now,
  };
  saveImportedStudy(store, { id, name, spec, simulated, now, reps });
  return {
    studyId: id,
    name,
    format,
    reps: reps.length,
    items: new Set(reps.map((rep) => `${rep.dataset}\u0000${rep.itemId}`)).size,
    judges: new Set(reps.map((rep) => rep.judge)).size,
    conditions: [...new Set(reps.map((rep) => rep.condition))],
    simulated,
    warnings: warningsFor(reps),
  };
}

/** Reads a results file from disk and imports it. */
export function importResultsFile(
  store: Store,
  path: string,
  options: { readonly name?: string; readonly format?: ResultsFormat } = {},
): ImportSummary {
  // Capped like bundles; a gzipped file is read as the file it holds.
  const content = readLimitedText(resolve(path), path);
  checkRowCount(countLines(content), path);
  const fileName = basename(path).replace(/\.gz$/i, '');
  return importResults(store, { fileName, content, ...options });
}
