/**
 * Readouts by dimension (App. G) and the built-in error taxonomies (App. J). Dimension names,
 * scales and taxonomy categories come from the paper module; the instructions and the short
 * category definitions are CueLab's own words (the paper prints neither).
 */
import type { SuiteTaxonomy } from '../../../shared/suite-format';
import { EngineError } from '../errors';
import {
  DIMENSIONS,
  AJ_FILESYSTEM_TAXONOMY,
  AJ_POSTGRES_TAXONOMY,
  SWE_BENCH_VERIFIED_TAXONOMY,
  type ErrorCategory,
} from '../paper';
import type { Readout, Taxonomy } from '../contract';

/** The dimension id that selects the error-attribution readout (§3.2). */
export const errorAttributionDimension = 'error_attribution';

const definitions: Record<string, string> = {
  A1: 'The agent was led astray by misleading wording in the issue.',
  A2: 'The agent matched surface text instead of locating the real cause.',
  B1: 'The chosen fix strategy cannot resolve the issue.',
  B2: 'The strategy is right but implementation details are wrong.',
  B3: 'The fix covers only part of the issue.',
  B4: 'The fix breaks behaviour the issue did not ask to change.',
  C1: 'The agent did not reproduce the issue or verify its fix.',
  C2: 'The agent looped, thrashed or abandoned iterations.',
  C3: 'The agent forgot earlier context or findings.',
  FS1: 'The agent acted on the wrong path or scope.',
  FS2: 'The agent read or wrote outside the allowed directory.',
  FS3: 'The agent misused a tool or its arguments.',
  FS4: 'The agent confused directory structure with file content.',
  FS5: 'The agent did not traverse everything the task covers.',
  FS6: 'The agent relied on a stale view of the filesystem.',
  FS7: 'The agent stopped without verifying the result.',
  PG1: 'The agent failed to find the relevant schema or tables.',
  PG2: 'The agent linked the question to the wrong columns or tables.',
  PG3: 'The agent misread the meaning of stored values.',
  PG4: 'The SQL the agent wrote is wrong.',
  PG5: 'The agent broke the task into the wrong steps.',
  PG6: 'The agent misread the results it got.',
  PG7: 'The agent mishandled errors while iterating.',
};

function builtin(id: string, name: string, categories: readonly ErrorCategory[]): Taxonomy {
  return {
    id,
    name,
    categories: categories.map((category) => ({
      id: category.id,
      name: category.name,
      definition: definitions[category.id] ?? '',
    })),
  };
}

/** App. J's three taxonomies, by id. */
export const builtinTaxonomies: Record<string, Taxonomy> = {
  'swe-bench-verified': builtin(
    'swe-bench-verified',
    'SWE-Bench-Verified',
    SWE_BENCH_VERIFIED_TAXONOMY,
  ),
  'aj-filesystem': builtin('aj-filesystem', 'AJ-Bench Filesystem', AJ_FILESYSTEM_TAXONOMY),
  'aj-postgres': builtin('aj-postgres', 'AJ-Bench Postgres', AJ_POSTGRES_TAXONOMY),
};

const binaryInstructions: Record<string, string> = {
  task_success: 'Decide whether the agent completed the task successfully: pass or fail.',
  state_correctness:
    'Decide whether the final state of the environment is what the task requires: pass or fail.',
  executable_success:
    'Decide whether what the agent produced runs and does what the task requires: pass or fail.',
};

/** The readout for judging `dimension`; taxonomies are looked up for error attribution. */
export function readoutFor(
  dimension: string,
  taxonomyId: string | undefined,
  suiteTaxonomies: readonly SuiteTaxonomy[] = [],
): Readout {
  if (dimension === errorAttributionDimension) {
    if (!taxonomyId) {
      throw new EngineError(
        'bad_request',
        'The error-attribution readout needs an item with a taxonomy.',
      );
    }
    const taxonomy =
      suiteTaxonomies.find((entry) => entry.id === taxonomyId) ?? builtinTaxonomies[taxonomyId];
    if (!taxonomy) throw new EngineError('not_found', `There is no taxonomy "${taxonomyId}".`);
    return {
      kind: 'error_attribution',
      dimension,
      instructions:
        "For each error category below, decide whether the agent's trajectory exhibits it (present) or not (absent).",
      taxonomy,
    };
  }
  const known = DIMENSIONS.find((entry) => entry.id === dimension);
  if (!known) {
    const names = [...DIMENSIONS.map((entry) => entry.id), errorAttributionDimension].join(', ');
    throw new EngineError('bad_request', `Unknown dimension "${dimension}". Known: ${names}.`);
  }
  if (known.scale === 'binary') {
    return {
      kind: 'binary',
      dimension,
      instructions: binaryInstructions[dimension] ?? `Judge ${known.name}: pass or fail.`,
    };
  }
  return {
    kind: 'graded',
    dimension,
    instructions: `Score the agent's ${known.name} from 1 (very poor) to 100 (excellent).`,
  };
}
