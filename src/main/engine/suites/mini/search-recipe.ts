/**
 * What a `mini-search` item is made from (the deep-search substrate): a web snapshot, a scripted
 * agent that calls `web_search` and `fetch_url` on it, the answers that count, and the probes a
 * careful judge would run. Generating an item runs the agent's calls against the snapshot
 * through the judge's own tool code and records what they really returned; the gold label is
 * what the exact-answer check says about the agent's final message.
 */
import type {
  EnvironmentSpec,
  Probe,
  ProbeExpectation,
  SuiteItem,
  WebPage,
} from '../../../../shared/suite-format';
import type { Trajectory } from '../../../../shared/trajectory';
import { provisionEnvironment, checkAnswer } from '../../environments';
import { defaultToolLimits, runTool } from '../../judge';
import { agentTrajectory, hardCaseNote, type HardCaseKind } from './recipe';
import { filesName } from '../../../../shared/substrates/files';

/** The deep-search dataset; App. J has no taxonomy for it. */
export const searchDataset = 'mini-search';

/** One step of the scripted searcher: its words, then one web tool call. */
export interface SearchStep {
  thought: string;
  tool: 'web_search' | 'fetch_url';
  input: { query: string } | { url: string };
}

/** Everything a search item is generated from. */
export interface SearchRecipe {
  id: string;
  task: string;
  pages: WebPage[];
  steps: SearchStep[];
  /** The agent's last message; it ends with `Answer: ...`. */
  final: string;
  /** The answers that count (exact, ignoring case and spacing). */
  answer: string[];
  probes: Probe[];
  dimensions: string[];
  hardCase?: { kind: HardCaseKind; why: string };
}

const webTools = new Set(['web_search', 'fetch_url']);

/** A search step. */
export function search(thought: string, query: string): SearchStep {
  return { thought, tool: 'web_search', input: { query } };
}

/** A fetch step. */
export function fetch(thought: string, url: string): SearchStep {
  return { thought, tool: 'fetch_url', input: { url } };
}

interface ProbeFields {
  id: string;
  claim: string;
  expect: ProbeExpectation;
}

/** A surface check with `web_search`. */
export function searchCheck(fields: ProbeFields & { query: string }): Probe {
  const { id, claim, expect, query } = fields;
  return { id, tool: 'web_search', input: { query }, expect, claim, decisive: false };
}

/** A surface check with `fetch_url`. */
export function fetchCheck(fields: ProbeFields & { url: string }): Probe {
  const { id, claim, expect, url } = fields;
  return { id, tool: 'fetch_url', input: { url }, expect, claim, decisive: false };
}

/** The decisive check: the page that settles the question, read with `fetch_url`. */
export function decisiveFetch(fields: ProbeFields & { url: string }): Probe {
  return { ...fetchCheck(fields), decisive: true };
}

/** The item's environment: only its web snapshot (no files, no shell, no container). */
export function searchEnvironment(recipe: SearchRecipe): EnvironmentSpec {
  return { substrate: filesName, files: {}, shell: false, web: { pages: recipe.pages } };
}

/** The trajectory: the task, each step's words and web call with its real result, the end. */
export function buildSearchTrajectory(
  recipe: SearchRecipe,
  outputs: readonly string[],
): Trajectory {
  return agentTrajectory(recipe.task, recipe.steps, outputs, recipe.final);
}

/** Runs web tool calls against the item's snapshot as the judge's tools would; their outputs. */
export async function runWebCalls(
  environment: EnvironmentSpec,
  calls: readonly { tool: string; input: unknown }[],
): Promise<string[]> {
  const provisioned = await provisionEnvironment(
    environment,
    { id: 'web' },
    { backend: 'snapshot' },
  );
  try {
    const outputs: string[] = [];
    for (const call of calls) {
      const outcome = await runTool(call.tool, call.input, {
        environment: provisioned.environment,
        trajectoryLines: [],
        limits: defaultToolLimits,
        offered: webTools,
      });
      outputs.push(outcome.content);
    }
    return outputs;
  } finally {
    await provisioned.dispose();
  }
}

/** Runs one search recipe against its snapshot and returns the item, labelled by the answer check. */
export async function generateSearchItem(recipe: SearchRecipe): Promise<SuiteItem> {
  const environment = searchEnvironment(recipe);
  const outputs = await runWebCalls(environment, recipe.steps);
  const trajectory = buildSearchTrajectory(recipe, outputs);
  return {
    id: recipe.id,
    dataset: searchDataset,
    substrate: 'web',
    task: recipe.task,
    trajectory,
    environment,
    dimensions: recipe.dimensions,
    gold: checkAnswer(trajectory, recipe.answer).passed ? 'pass' : 'fail',
    verifier: { answer: recipe.answer },
    probes: recipe.probes,
    ...(recipe.hardCase ? { note: hardCaseNote(recipe.hardCase) } : {}),
  };
}
