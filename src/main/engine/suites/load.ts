/**
 * Reading a suite file. Everything in it is untrusted until parsed: errors name the file, the
 * field path and what is wrong, so a researcher can fix a dataset without guessing.
 */
import { isNode, LineCounter, parseDocument } from 'yaml';
import { suiteFileSchema, type SuiteFile } from '../../../shared/suite-format';
import { EngineError } from '../errors';
import { jsonErrorMessage, MAX_NAMED_FILE_BYTES, readRegularFile } from '../input-limits';

/** Parses and validates suite JSON text; `name` labels errors (usually the file path). */
export function parseSuite(text: string, name: string): SuiteFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineError('bad_request', `${name} is not valid JSON: ${jsonErrorMessage(error)}.`);
  }
  const parsed = suiteFileSchema.safeParse(raw);
  const where = fieldLines(text, name);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 20)
      .map(
        (issue) =>
          `  ${where(issue.path)}: ${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`,
      );
    const more =
      parsed.error.issues.length > 20 ? `\n  ... and ${parsed.error.issues.length - 20} more` : '';
    throw new EngineError(
      'bad_request',
      `${name} is not a valid suite:\n${problems.join('\n')}${more}`,
    );
  }
  const suite = parsed.data;
  const problems: string[] = [];
  const seen = new Set<string>();
  const taxonomies = new Set(suite.taxonomies.map((taxonomy) => taxonomy.id));
  suite.items.forEach((item, index) => {
    if (seen.has(item.id))
      problems.push(
        `  ${where(['items', index, 'id'])}: items.${index}.id: "${item.id}" appears twice`,
      );
    seen.add(item.id);
    if (item.taxonomy && !taxonomies.has(item.taxonomy) && !isBuiltinTaxonomy(item.taxonomy)) {
      problems.push(
        `  ${where(['items', index, 'taxonomy'])}: items.${index}.taxonomy: no taxonomy ` +
          `"${item.taxonomy}" in the suite or built in`,
      );
    }
  });
  if (problems.length)
    throw new EngineError('bad_request', `${name} is not a valid suite:\n${problems.join('\n')}`);
  return suite;
}

/**
 * `FILE:LINE` of a field, for problems a researcher fixes in an editor: the line of the deepest
 * node on the path that exists (a missing field points at its object). JSON is YAML, so the
 * YAML parser gives the lines; it runs only when there is a problem to place.
 */
function fieldLines(text: string, name: string): (path: PropertyKey[]) => string {
  let located: { doc: ReturnType<typeof parseDocument>; lines: LineCounter } | undefined;
  return (path) => {
    if (!located) {
      const lines = new LineCounter();
      located = { doc: parseDocument(text, { lineCounter: lines }), lines };
    }
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const node: unknown =
        depth === 0
          ? located.doc.contents
          : located.doc.getIn(path.slice(0, depth) as (string | number)[], true);
      if (isNode(node) && node.range) return `${name}:${located.lines.linePos(node.range[0]).line}`;
    }
    return name;
  };
}

/** Reads and validates a suite file. */
export function loadSuiteFile(path: string): SuiteFile {
  const what = `the suite file ${path}`;
  return parseSuite(readRegularFile(path, what, MAX_NAMED_FILE_BYTES).toString('utf8'), path);
}

/** Ids of the App. J taxonomies every suite may use. */
export const builtinTaxonomyIds = ['swe-bench-verified', 'aj-filesystem', 'aj-postgres'] as const;

function isBuiltinTaxonomy(id: string): boolean {
  return (builtinTaxonomyIds as readonly string[]).includes(id);
}
