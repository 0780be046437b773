/**
 * What the judge is asked to decide, and the shape of its answer. Three readouts, as in the
 * paper: binary task success (§3.1), a graded dimension scored 1–100 (App. G), and error
 * attribution — present/absent per category of a taxonomy (§3.2, App. J).
 */
import { z } from 'zod';
import type { Readout, Verdict } from '../contract';
import { deepFreeze } from './frozen';

const rationale = z
  .string()
  .min(1)
  .describe('Your reasoning, citing the tool results and trajectory lines it rests on.');

/**
 * What a readout's verdict schema depends on: its kind, a graded readout's dimension (named in
 * a description), an error-attribution readout's category ids and names. Instructions and
 * definitions only go into the prompt.
 */
function readoutShapeKey(readout: Readout): string {
  switch (readout.kind) {
    case 'binary':
      return 'binary';
    case 'graded':
      return JSON.stringify(['graded', readout.dimension]);
    case 'error_attribution':
      return JSON.stringify([
        'error_attribution',
        readout.taxonomy.categories.map((category) => [category.id, category.name]),
      ]);
  }
}

/** A study has a few readout shapes; past this many the cache starts over (bounded memory). */
const shapeCacheLimit = 128;

/** Readout shape → its verdict schemas, built once: a rep used to build both twice. */
const verdictSchemas = new Map<string, { zod: z.ZodType; json: Record<string, unknown> }>();

function schemasOf(readout: Readout): { zod: z.ZodType; json: Record<string, unknown> } {
  const key = readoutShapeKey(readout);
  let schemas = verdictSchemas.get(key);
  if (!schemas) {
    const zod = buildVerdictSchema(readout);
    const json = z.toJSONSchema(zod) as Record<string, unknown>;
    delete json.$schema;
    if (verdictSchemas.size >= shapeCacheLimit) verdictSchemas.clear();
    schemas = { zod, json: deepFreeze(json) };
    verdictSchemas.set(key, schemas);
  }
  return schemas;
}

/** The argument schema of `submit_verdict` for a readout (shared per readout shape). */
export function verdictSchema(readout: Readout): z.ZodType {
  return schemasOf(readout).zod;
}

/** The verdict schema built anew (uncached): what the cache holds, and what its test compares. */
export function buildVerdictSchema(readout: Readout): z.ZodType {
  switch (readout.kind) {
    case 'binary':
      return z
        .object({
          verdict: z
            .enum(['pass', 'fail'])
            .describe('pass if the agent completed the task, else fail'),
          confidence: z.number().min(0).max(1).describe('How sure you are, from 0 to 1.'),
          rationale,
        })
        .strict();
    case 'graded':
      return z
        .object({
          score: z
            .number()
            .int()
            .min(1)
            .max(100)
            .describe(`Score for ${readout.dimension}, 1 to 100.`),
          rationale,
        })
        .strict();
    case 'error_attribution': {
      const shape: Record<string, z.ZodType> = {};
      for (const category of readout.taxonomy.categories) {
        shape[category.id] = z.enum(['present', 'absent']).describe(category.name);
      }
      return z
        .object({
          categories: z.object(shape).strict().describe('Every category, present or absent.'),
          rationale,
        })
        .strict();
    }
  }
}

/** Turns parsed `submit_verdict` arguments into a Verdict. */
export function toVerdict(readout: Readout, data: unknown): Verdict {
  const value = data as Record<string, unknown>;
  switch (readout.kind) {
    case 'binary':
      return {
        kind: 'binary',
        outcome: value.verdict as 'pass' | 'fail',
        confidence: value.confidence as number,
        rationale: value.rationale as string,
      };
    case 'graded':
      return { kind: 'graded', score: value.score as number, rationale: value.rationale as string };
    case 'error_attribution': {
      const categories = value.categories as Record<string, 'present' | 'absent'>;
      const ids = readout.taxonomy.categories.map((category) => category.id);
      return {
        kind: 'error_attribution',
        present: ids.filter((id) => categories[id] === 'present'),
        absent: ids.filter((id) => categories[id] === 'absent'),
        rationale: value.rationale as string,
      };
    }
  }
}

/** JSON Schema of `submit_verdict`'s arguments, as providers receive it (shared, frozen). */
export function verdictJsonSchema(readout: Readout): Record<string, unknown> {
  return schemasOf(readout).json;
}
