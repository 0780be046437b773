/**
 * Generates `cuelab-mini` from its recipes. For each recipe, in the base image through the
 * Docker backend: start from the initial state (files and setup), run each of the scripted
 * agent's commands as the agent user in the working folder and record what it really printed,
 * then run the verifier in that final state. Its exit status is the gold label; nothing else
 * decides it. The item replays the recorded shell calls to reach the same final state.
 */
import type Docker from 'dockerode';
import {
  suiteFileSchema,
  type EnvironmentSpec,
  type SuiteFile,
  type SuiteItem,
} from '../../../../shared/suite-format';
import type { Trajectory } from '../../../../shared/trajectory';
import { createDockerClient, prepareItem, withRep } from '../../environments';
import { agentStepLimits, formatShellResult, mapPool, requireItemContainers } from './containers';
import { miniRecipes, miniSearchRecipes, miniSuiteInfo } from './index';
import { agentTrajectory, hardCaseNote, miniSubstrates, type MiniRecipe } from './recipe';
import { generateSearchItem, type SearchRecipe } from './search-recipe';
import { postgresName } from '../../../../shared/substrates/postgres';
import { filesName } from '../../../../shared/substrates/files';
import { sqliteName } from '../../../../shared/substrates/sqlite';
import { shellName } from '../../../../shared/substrates/shell';

/** Options of `generateMiniSuite`. */
export interface GenerateOptions {
  /** Default: every recipe. */
  recipes?: readonly MiniRecipe[];
  /** Default: every search recipe (they need no container). */
  searchRecipes?: readonly SearchRecipe[];
  docker?: Docker;
  signal?: AbortSignal;
  /** Items generated at once; default 2. */
  concurrency?: number;
  /** One line per finished item. */
  onProgress?: (line: string) => void;
  /**
   * Items to keep as they are (by id) instead of running their recipe again: regenerating only
   * new recipes leaves every recorded trajectory of the others byte for byte.
   */
  keep?: readonly SuiteItem[];
}

/** The environment of an item: its starting state, replaying the agent's shell calls. */
export function itemEnvironment(recipe: MiniRecipe): EnvironmentSpec {
  const state = { files: recipe.files, shell: true, setup: recipe.setup, replay: true };
  if (recipe.postgres) {
    const postgres = { database: 'app', owner: 'agent', ...recipe.postgres };
    return { substrate: postgresName, ...state, postgres };
  }
  if (recipe.database)
    return { substrate: sqliteName, ...state, database: { path: recipe.database } };
  return { substrate: filesName, ...state };
}

/** The same environment before the agent acted (no replay). */
export function startingEnvironment(spec: EnvironmentSpec): EnvironmentSpec {
  return { ...spec, replay: false };
}

/** What running commands in a fresh container printed, and what a last check said. */
export interface CommandRun {
  /** Each command's result, formatted as a trajectory tool message. */
  outputs: string[];
  /** The check's exit code and output, when one was given. */
  check?: { exitCode: number | null; output: string };
}

/**
 * Runs `commands` in order, as the agent user, in a fresh container started from `spec`'s
 * starting state; then `check`, if given, in the state they left.
 */
export async function runInFreshContainer(
  spec: EnvironmentSpec,
  itemId: string,
  commands: readonly string[],
  options: { check?: string; docker?: Docker; signal?: AbortSignal } = {},
): Promise<CommandRun> {
  const docker = options.docker ?? createDockerClient();
  const signal = options.signal;
  const prepared = await prepareItem(startingEnvironment(spec), itemId, {
    docker,
    ...(signal ? { signal } : {}),
  });
  return withRep(
    prepared,
    async ({ environment }) => {
      const outputs: string[] = [];
      for (const command of commands) {
        outputs.push(formatShellResult(await environment.exec(command, agentStepLimits, signal)));
      }
      if (options.check === undefined) return { outputs };
      const result = await environment.exec(options.check, agentStepLimits, signal);
      const output = `${result.stdout}${result.stderr}`.trim();
      return { outputs, check: { exitCode: result.exitCode, output } };
    },
    { docker, ...(signal ? { signal } : {}) },
  );
}

/** The trajectory: the task, each step's words and shell call with its real result, the end. */
export function buildTrajectory(recipe: MiniRecipe, outputs: readonly string[]): Trajectory {
  const calls = recipe.steps.map((step) => ({
    thought: step.thought,
    tool: shellName,
    input: { command: step.command },
  }));
  return agentTrajectory(recipe.task, calls, outputs, recipe.final);
}

/** Runs one recipe's agent and verifier in Docker and returns the item, labelled by the verifier. */
export async function generateItem(
  recipe: MiniRecipe,
  options: { docker?: Docker; signal?: AbortSignal } = {},
): Promise<SuiteItem> {
  const environment = itemEnvironment(recipe);
  const run = await runInFreshContainer(
    environment,
    recipe.id,
    recipe.steps.map((step) => step.command),
    { ...options, check: recipe.verifier },
  );
  return recipeItem(recipe, run, environment);
}

/**
 * The item a recipe's run makes: the trajectory of what its agent really printed, the judge's
 * environment, and the verifier's exit status as the gold label. `dataset` defaults to the
 * substrate's mini dataset.
 */
export function recipeItem(
  recipe: MiniRecipe,
  run: CommandRun,
  environment: EnvironmentSpec,
  dataset: string = miniSubstrates[recipe.substrate].dataset,
): SuiteItem {
  return {
    id: recipe.id,
    dataset,
    substrate: recipe.substrate,
    task: recipe.task,
    trajectory: buildTrajectory(recipe, run.outputs),
    environment,
    dimensions: recipe.dimensions,
    taxonomy: miniSubstrates[recipe.substrate].taxonomy,
    gold: run.check?.exitCode === 0 ? 'pass' : 'fail',
    verifier: { command: recipe.verifier },
    probes: recipe.probes,
    ...(recipe.hardCase ? { note: hardCaseNote(recipe.hardCase) } : {}),
  };
}

/** Generates the whole suite (validated against the suite format). */
export async function generateMiniSuite(options: GenerateOptions = {}): Promise<SuiteFile> {
  const recipes = options.recipes ?? miniRecipes;
  const docker = options.docker ?? createDockerClient();
  await requireItemContainers(
    docker,
    recipes.map(itemEnvironment).map((environment) => ({ environment })),
    'Building cuelab-mini',
  );
  let done = 0;
  const kept = new Map((options.keep ?? []).map((item) => [item.id, item]));
  const items = await mapPool(recipes, options.concurrency ?? 2, async (recipe) => {
    const keep = kept.get(recipe.id);
    if (keep) return keep;
    const started = Date.now();
    const item = await generateItem(recipe, {
      docker,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    done += 1;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    options.onProgress?.(
      `[${done}/${recipes.length}] ${recipe.id}: ${recipe.steps.length} steps, verifier says ` +
        `${item.gold ?? '?'} (${seconds}s)`,
    );
    return item;
  });
  const searchItems: SuiteItem[] = [];
  for (const recipe of options.searchRecipes ?? miniSearchRecipes) {
    const item = kept.get(recipe.id) ?? (await generateSearchItem(recipe));
    options.onProgress?.(
      `${recipe.id}: ${recipe.steps.length} web calls, answer ${item.gold ?? '?'}`,
    );
    searchItems.push(item);
  }
  const suite: SuiteFile = {
    ...miniSuiteInfo,
    taxonomies: [],
    items: [...items, ...searchItems],
  };
  suiteFileSchema.parse(suite);
  return suite;
}
