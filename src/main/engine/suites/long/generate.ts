/**
 * Generates `cuelab-long` (recipes.ts). Each recipe's scripted agent runs in a fresh container
 * from the base image, exactly as for `cuelab-mini` (mini/generate.ts), and the verifier's exit
 * status is the gold label. Unlike a mini item, a long item stores the agent's final files, not
 * a replay: the judge investigates them with `read_file` and `list_dir` (AJ-Bench Filesystem's
 * judge tools), so a rep starts in milliseconds on the snapshot backend, and a study of hundreds
 * of long reps needs no container per rep. `cuelab suite verify` still rebuilds every item in
 * Docker and runs its verifier there.
 */
import type Docker from 'dockerode';
import { suiteFileSchema, type SuiteFile, type SuiteItem } from '../../../../shared/suite-format';
import { createDockerClient } from '../../environments';
import { EngineError } from '../../errors';
import { mapPool, requireItemContainers } from '../mini/containers';
import { itemEnvironment, recipeItem, runInFreshContainer } from '../mini/generate';
import { miniSubstrates, pythonScript, type MiniRecipe } from '../mini/recipe';
import { longRecipes } from './recipes';
import { filesName } from '../../../../shared/substrates/files';

/** The suite file's own fields. */
export const longSuiteInfo = {
  id: 'cuelab-long',
  name: 'CueLab long trajectories',
  description:
    'Long filing runs shaped like AJ-Bench Filesystem: an agent sorts an inbox of 9 to 36 ' +
    'documents by their Type line, one read and one move per call (20 to 78 shell calls). The ' +
    "judge reads the agent's final files; a careful judge re-reads each ambiguous document, " +
    "the agent's log and one decisive placement, so its plans span App. L's turn bins from 1–3 " +
    'to 26+. Nine items in ten have a misleading surface. Each trajectory is the real log ' +
    "of a scripted agent run in Docker; each label is what the item's verifier says. Check with " +
    '`cuelab suite verify cuelab-long`.',
} as const;

/** Prints the working folder's files as one JSON object (path → text), sorted. */
const dumpFiles = pythonScript(`
  import json, os
  files = {}
  for folder, _, names in os.walk('.'):
      for name in names:
          path = os.path.relpath(os.path.join(folder, name))
          files[path] = open(path).read()
  print(json.dumps(files, sort_keys=True))
`);

/** The files a `dumpFiles` run printed, from its formatted shell result. */
function parseDump(output: string, itemId: string): Record<string, string> {
  const match = /^exit code: 0\nstdout:\n([\s\S]*)$/.exec(output);
  if (!match?.[1]) {
    throw new EngineError('internal', `${itemId}: could not read the final files (${output})`);
  }
  return JSON.parse(match[1]) as Record<string, string>;
}

/** Runs one recipe's agent in Docker and returns the item over its final files. */
export async function generateLongItem(
  recipe: MiniRecipe,
  options: { docker?: Docker; signal?: AbortSignal } = {},
): Promise<SuiteItem> {
  const commands = [...recipe.steps.map((step) => step.command), dumpFiles];
  const run = await runInFreshContainer(itemEnvironment(recipe), recipe.id, commands, {
    ...options,
    check: recipe.verifier,
  });
  // The last output is the file dump, not an agent step.
  const files = parseDump(run.outputs.at(-1) ?? '', recipe.id);
  const agentRun = { ...run, outputs: run.outputs.slice(0, recipe.steps.length) };
  const dataset = miniSubstrates[recipe.substrate].dataset.replace(/^mini-/, 'long-');
  return recipeItem(recipe, agentRun, { substrate: filesName, files, shell: false }, dataset);
}

/** Generates the whole suite (validated against the suite format). */
export async function generateLongSuite(
  options: {
    recipes?: readonly MiniRecipe[];
    docker?: Docker;
    signal?: AbortSignal;
    concurrency?: number;
    onProgress?: (line: string) => void;
  } = {},
): Promise<SuiteFile> {
  const recipes = options.recipes ?? longRecipes;
  const docker = options.docker ?? createDockerClient();
  await requireItemContainers(
    docker,
    recipes.map((recipe) => ({ environment: itemEnvironment(recipe) })),
    'Building cuelab-long',
  );
  let done = 0;
  const items = await mapPool(recipes, options.concurrency ?? 2, async (recipe) => {
    const item = await generateLongItem(recipe, {
      docker,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    done += 1;
    options.onProgress?.(
      `[${done}/${recipes.length}] ${recipe.id}: ${recipe.steps.length} steps, ` +
        `${recipe.probes.length} probes, verifier says ${item.gold ?? '?'}`,
    );
    return item;
  });
  const suite: SuiteFile = { ...longSuiteInfo, taxonomies: [], items };
  suiteFileSchema.parse(suite);
  return suite;
}
