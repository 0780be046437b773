/**
 * Reading a study spec file, JSON or YAML (JSON is YAML, so one parser gives line numbers for
 * both). Every problem is reported as `FILE:LINE: field.path: what is wrong`.
 */
import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { studySpecSchema, type StudySpec } from '../../../shared/study-spec';
import { EngineError } from '../errors';

/** Parses and validates spec text; `name` labels errors (usually the file path). */
export function parseStudySpec(text: string, name: string): StudySpec {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => {
      const line = error.linePos?.[0]?.line;
      return `${name}${line ? `:${line}` : ''}: ${error.message.split('\n')[0] ?? error.message}`;
    });
    throw new EngineError('bad_request', `The study spec does not parse:\n${problems.join('\n')}`);
  }
  const parsed = studySpecSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const line = lineOf(doc, lineCounter, issue.path);
      const field = issue.path.map(String).join('.') || '(spec)';
      return `${name}${line ? `:${line}` : ''}: ${field}: ${issue.message}`;
    });
    throw new EngineError('bad_request', `The study spec is not valid:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** Reads and validates a spec file. */
export function loadStudySpec(path: string): StudySpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngineError(
      'not_found',
      `Cannot read the study spec ${path}: ${(error as Error).message}.`,
    );
  }
  return parseStudySpec(text, path);
}

/** The line of the deepest node on `path` that exists (a missing field points at its parent). */
function lineOf(doc: Document, lineCounter: LineCounter, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node: unknown =
      depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth) as (string | number)[], true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
