/**
 * Verifying a suite: every item is rebuilt the way a judge rep gets it (its snapshot prepared
 * through the Docker backend, replay included, then a fresh rep container; a web item's
 * snapshot web), its verifier runs there (or, for a web item, the exact-answer check of the
 * agent's final message), and the verdict is compared with the stored gold label. The item's decisive probes
 * run too: a synthetic judge that follows them must reach the gold label when uncued.
 */
import type Docker from 'dockerode';
import type { SuiteItem } from '../../../../shared/suite-format';
import { createDockerClient, provisionEnvironment, checkAnswer } from '../../environments';
import { defaultToolLimits, type JudgeEnvironment, runTool } from '../../judge';
import { meetsExpectation } from '../../simulation';
import { EngineError } from '../../errors';
import { agentStepLimits, mapPool, requireItemContainers } from './containers';
import { probeToolNames } from '../../../../shared/suite-format';

/** A pass/fail verdict. */
export type Verdict = 'pass' | 'fail';

/** One item's verification. */
export interface VerifyRow {
  itemId: string;
  /** The stored label; null when the item has none. */
  gold: Verdict | null;
  /** What the verifier says now; `error` when the item could not be rebuilt or checked. */
  verifier: Verdict | 'error';
  /** What the item's decisive probes say (all met = pass); null when it has none. */
  decisiveProbes: Verdict | null;
  /** The verifier and the decisive probes both agree with the gold label. */
  ok: boolean;
  /** The verifier's output (its last 2000 characters), or the error. */
  output: string;
  seconds: number;
}

/** Options of `verifySuite`. */
export interface VerifyOptions {
  /** Only these items (each must exist); default all. */
  itemIds?: readonly string[];
  /** Called as each item finishes. */
  onProgress?: (row: VerifyRow, done: number, total: number) => void;
  docker?: Docker;
  signal?: AbortSignal;
  /** Items prepared at once; default 2. */
  concurrency?: number;
}

/** Every tool a probe may use (the judge's investigation tools). */
export const probeTools: ReadonlySet<string> = new Set(probeToolNames);

/** Rebuilds the items and checks each verifier against its stored label. */
export async function verifySuite(
  suite: { items: readonly SuiteItem[] },
  options: VerifyOptions = {},
): Promise<VerifyRow[]> {
  const items = selectItems(suite.items, options.itemIds);
  const docker = options.docker ?? createDockerClient();
  await requireItemContainers(docker, items, 'Verifying a suite');
  let done = 0;
  return mapPool(items, options.concurrency ?? 2, async (item) => {
    const row = await verifyItem(item, docker, options.signal);
    done += 1;
    options.onProgress?.(row, done, items.length);
    return row;
  });
}

function selectItems(items: readonly SuiteItem[], ids: readonly string[] | undefined): SuiteItem[] {
  if (!ids || ids.length === 0) return [...items];
  const byId = new Map(items.map((item) => [item.id, item]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    throw new EngineError(
      'not_found',
      `The suite has no item ${unknown.map((id) => `"${id}"`).join(', ')}.`,
    );
  }
  return [...new Set(ids)].map((id) => byId.get(id) as SuiteItem);
}

async function verifyItem(
  item: SuiteItem,
  docker: Docker,
  signal: AbortSignal | undefined,
): Promise<VerifyRow> {
  const started = Date.now();
  const gold = item.gold ?? null;
  const row = (fields: Pick<VerifyRow, 'verifier' | 'decisiveProbes' | 'output'>): VerifyRow => ({
    itemId: item.id,
    gold,
    ...fields,
    ok:
      gold !== null &&
      fields.verifier === gold &&
      (fields.decisiveProbes === null || fields.decisiveProbes === gold),
    seconds: (Date.now() - started) / 1000,
  });
  const { verifier } = item;
  if (!verifier) {
    return row({ verifier: 'error', decisiveProbes: null, output: 'the item has no verifier' });
  }
  try {
    // A command verifier needs the item's container; an answer check needs only its web.
    const provisioned = await provisionEnvironment(item.environment, item, {
      backend: 'command' in verifier ? 'docker' : 'auto',
      docker,
      ...(signal ? { signal } : {}),
    });
    try {
      const { environment } = provisioned;
      let verdict: Verdict;
      let output: string;
      if ('command' in verifier) {
        const result = await environment.exec(verifier.command, agentStepLimits, signal);
        output = `${result.stdout}${result.stderr}`.trim().slice(-2000);
        verdict = result.exitCode === 0 ? 'pass' : 'fail';
      } else {
        const check = checkAnswer(item.trajectory, verifier.answer);
        output = check.output;
        verdict = check.passed ? 'pass' : 'fail';
      }
      const decisiveProbes = await runDecisiveProbes(item, environment, signal);
      return row({ verifier: verdict, decisiveProbes, output });
    } finally {
      await provisioned.dispose();
    }
  } catch (error) {
    signal?.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    return row({ verifier: 'error', decisiveProbes: null, output: message });
  }
}

/** Runs the decisive probes as the judge's tools would; pass when every one is met. */
async function runDecisiveProbes(
  item: SuiteItem,
  environment: JudgeEnvironment,
  signal: AbortSignal | undefined,
): Promise<Verdict | null> {
  const decisive = (item.probes ?? []).filter((probe) => probe.decisive);
  if (decisive.length === 0) return null;
  for (const probe of decisive) {
    const outcome = await runTool(probe.tool, probe.input, {
      environment,
      trajectoryLines: [],
      limits: defaultToolLimits,
      offered: probeTools,
      ...(signal ? { signal } : {}),
    });
    if (!meetsExpectation(probe.expect, outcome)) return 'fail';
  }
  return 'pass';
}
