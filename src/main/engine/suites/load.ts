/**
 * Reading a suite file. Everything in it is untrusted until parsed: errors name the file, the
 * field path and what is wrong, so a researcher can fix a dataset without guessing.
 */
import { readFileSync } from 'node:fs';
import { suiteFileSchema, type SuiteFile } from '../../../shared/suite-format';
import { EngineError } from '../errors';

/** Parses and validates suite JSON text; `name` labels errors (usually the file path). */
export function parseSuite(text: string, name: string): SuiteFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineError('bad_request', `${name} is not valid JSON: ${(error as Error).message}.`);
  }
  const parsed = suiteFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 20)
      .map((issue) => `  ${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`);
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
    if (seen.has(item.id)) problems.push(`  items.${index}.id: "${item.id}" appears twice`);
    seen.add(item.id);
    if (item.taxonomy && !taxonomies.has(item.taxonomy) && !isBuiltinTaxonomy(item.taxonomy)) {
      problems.push(
        `  items.${index}.taxonomy: no taxonomy "${item.taxonomy}" in the suite or built in`,
      );
    }
  });
  if (problems.length)
    throw new EngineError('bad_request', `${name} is not a valid suite:\n${problems.join('\n')}`);
  return suite;
}

/** Reads and validates a suite file. */
export function loadSuiteFile(path: string): SuiteFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new EngineError(
      'not_found',
      `Cannot read the suite file ${path}: ${(error as Error).message}.`,
    );
  }
  return parseSuite(text, path);
}

/** Ids of the App. J taxonomies every suite may use. */
export const builtinTaxonomyIds = ['swe-bench-verified', 'aj-filesystem', 'aj-postgres'] as const;

function isBuiltinTaxonomy(id: string): boolean {
  return (builtinTaxonomyIds as readonly string[]).includes(id);
}
