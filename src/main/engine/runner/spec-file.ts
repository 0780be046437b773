/**
 * Reading a study spec file, JSON or YAML (JSON is YAML, so one parser gives line numbers for
 * both). Every problem is reported as `FILE:LINE: field.path: what is wrong`.
 */
import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { studySpecSchema, type StudySpec } from '../../../shared/study-spec';
import { EngineError } from '../errors';
import type { CueFamily } from '../../../shared/cue-family';
import { cuePresets, findCueFamily } from '../judge';
import { judgeKey } from '../../../shared/judge-names';

/**
 * Aliases a spec may expand: a handful is plenty for a hand-written file, and a low cap stops
 * a "billion laughs" file (nested aliases that expand to gigabytes) before it is expanded.
 */
const MAX_ALIASES = 50;

/** A problem found in a spec that parsed: where (field path) and what. */
export interface SpecProblem {
  path: PropertyKey[];
  message: string;
}

/**
 * What the schema cannot see: judge ids repeat, or a cue names a preset CueLab does not have.
 * The window's createStudy runs the same checks.
 */
export function specProblems(spec: StudySpec): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const seen = new Map<string, number>();
  const keys = new Map<string, number>();
  spec.judges.forEach((judge, index) => {
    const first = seen.get(judge.id) ?? keys.get(judgeKey(judge.id));
    if (first !== undefined)
      problems.push({
        path: ['judges', index, 'id'],
        message:
          seen.get(judge.id) !== undefined
            ? `judge id "${judge.id}" is already used by judges.${first}`
            : `judge id "${judge.id}" has the same internal key as judges.${first}; rename one`,
      });
    else {
      seen.set(judge.id, index);
      keys.set(judgeKey(judge.id), index);
    }
  });
  const known = new Set(cuePresets.map((preset) => preset.id));
  spec.arms.cues.forEach((cue, index) => {
    if (cue.kind === 'preset' && !known.has(cue.preset))
      problems.push({
        path: ['arms', 'cues', index, 'preset'],
        message: `unknown cue preset "${cue.preset}" (known: ${[...known].join(', ')})`,
      });
    if (cue.kind !== 'family') return;
    const family = studyFamily(spec, cue.family);
    if (typeof family === 'string') {
      problems.push({ path: ['arms', 'cues', index, 'family'], message: family });
      return;
    }
    const template = cue.template ?? 0;
    const fewest = Math.min(family.templates.severity.length, family.templates.leniency.length);
    if (template >= fewest)
      problems.push({
        path: ['arms', 'cues', index, 'template'],
        message: `cue family "${family.id}" has ${fewest} template(s) per direction; template ${template} does not exist (templates count from 0)`,
      });
  });
  return problems;
}

/** The spec's own copy of a family, else the registry's; an error message when neither has it. */
function studyFamily(spec: StudySpec, id: string): CueFamily | string {
  const own = spec.cueFamilies?.find((family) => family.id === id);
  if (own) return own;
  try {
    return findCueFamily(id);
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The spec with a copy of every family its cues use (from the registry, unless it already
 * carries one), so the stored study replays and travels without the registry.
 */
export function withStudyFamilies(spec: StudySpec): StudySpec {
  const ids = [
    ...new Set(spec.arms.cues.flatMap((cue) => (cue.kind === 'family' ? [cue.family] : []))),
  ];
  if (ids.length === 0) return spec;
  const families = ids.map((id) => {
    const family = studyFamily(spec, id);
    if (typeof family === 'string') throw new EngineError('bad_request', family);
    return family;
  });
  return { ...spec, cueFamilies: families };
}

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
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new EngineError(
      'bad_request',
      `The study spec does not parse:\n${name}: ${(error as Error).message} ` +
        `(at most ${MAX_ALIASES} alias expansions).`,
    );
  }
  const parsed = studySpecSchema.safeParse(raw);
  const where = (path: PropertyKey[]) => {
    const line = lineOf(doc, lineCounter, path);
    return `${name}${line ? `:${line}` : ''}: ${path.map(String).join('.') || '(spec)'}`;
  };
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap((issue) =>
      // One line per unknown key, at the key's own line (a typo is easier to find there).
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => `${where([...issue.path, key])}: unknown field`)
        : [`${where(issue.path)}: ${issue.message}`],
    );
    throw new EngineError('bad_request', `The study spec is not valid:\n${problems.join('\n')}`);
  }
  const problems = specProblems(parsed.data);
  if (problems.length)
    throw new EngineError(
      'bad_request',
      `The study spec is not valid:\n${problems.map((problem) => `${where(problem.path)}: ${problem.message}`).join('\n')}`,
    );
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
