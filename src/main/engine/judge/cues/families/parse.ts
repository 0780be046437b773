/**
 * Reading a cue family file, JSON or YAML, written by a stranger: bounded size, no alias
 * expansion beyond a handful, one yaml parse (linear), and every problem reported as
 * `FILE:LINE: field.path: what is wrong`, naming the field.
 */
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import {
  CUE_FAMILY_LIMITS,
  cueFamilySchema,
  type CueFamily,
} from '../../../../../shared/cue-family';
import { EngineError } from '../../../errors';
import { readRegularFile } from '../../../input-limits';

const MAX_ALIASES = 20;

/** Parses and validates family text; `name` labels errors (usually the file name). */
export function parseCueFamily(text: string, name: string): CueFamily {
  if (Buffer.byteLength(text, 'utf8') > CUE_FAMILY_LIMITS.fileBytes) {
    throw new EngineError(
      'bad_request',
      `The cue family ${name} is larger than ${CUE_FAMILY_LIMITS.fileBytes / 1024} KB; nothing was imported.`,
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.slice(0, 10).map((error) => {
      const line = error.linePos?.[0]?.line;
      return `${name}${line ? `:${line}` : ''}: ${error.message.split('\n')[0] ?? error.message}`;
    });
    throw new EngineError('bad_request', `The cue family does not parse:\n${problems.join('\n')}`);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `The cue family does not parse:\n${name}: ${(error as Error).message}`,
    );
  }
  const parsed = cueFamilySchema.safeParse(raw);
  if (!parsed.success) {
    const where = (path: PropertyKey[]) => {
      const line = lineOf(doc, lineCounter, path);
      return `${name}${line ? `:${line}` : ''}: ${path.map(String).join('.') || '(family)'}`;
    };
    const problems = parsed.error.issues
      .slice(0, 20)
      .flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => `${where([...issue.path, key])}: unknown field`)
          : [`${where(issue.path)}: ${issue.message}`],
      );
    throw new EngineError('bad_request', `The cue family is not valid:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** Reads and validates a family file (a regular file of at most the family size limit). */
export function loadCueFamilyFile(path: string): CueFamily {
  const data = readRegularFile(path, `the cue family ${path}`, CUE_FAMILY_LIMITS.fileBytes);
  return parseCueFamily(data.toString('utf8'), path);
}

function lineOf(doc: Document, lineCounter: LineCounter, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node: unknown =
      depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth) as (string | number)[], true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
