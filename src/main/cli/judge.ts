import { parseArgs } from 'node:util';
import { isSimulatedProvider, providerCatalogue } from '../../shared/catalogue/providers';
import { createEngine, workspaceForProcess } from '../engine/engine';
import {
  createProvider,
  judgeOneRepIn,
  storedJudgeRep,
  modelSettingsSchema,
  removeOrphans,
  toolBudget,
  type EnvironmentBackend,
  type JudgeRepResult,
} from '../engine/machine';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import {
  conditionFromFlags,
  conditionOptions,
  conditionUsage,
  itemFromFlags,
} from './condition-flags';

const judgeOptions = {
  ...conditionOptions,
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  temperature: { type: 'string' },
  'max-tokens': { type: 'string' },
  'timeout-ms': { type: 'string' },
  budget: { type: 'string' },
  persona: { type: 'string' },
  backend: { type: 'string' },
} as const;

const baseUrlProviders = providerCatalogue.filter((entry) => entry.baseUrlRequired);
const baseUrlKinds = baseUrlProviders.map((entry) => entry.kind).join(', ');
const baseUrlExample = baseUrlProviders[0]?.baseUrlExample ?? 'http://localhost:8000/v1';
const keyVariables = providerCatalogue
  .flatMap((entry) => (entry.keyVariable ? [entry.keyVariable] : []))
  .join(' or ');

/** `cuelab judge`: one judge rep, run, stored and summarised. */
export const judgeCommand: CliCommand = {
  name: 'judge',
  // One rep in this machine's Docker, stored in the local workspace (engine/runner/judge-one.ts).
  local: true,
  summary: 'Run one judge rep on one item against a model, store it and print the verdict',
  usage: `Usage: cuelab judge --suite S --item ID --provider P --model M [options] [condition flags]

Runs one agentic judge rep, stores every message, tool call, token count and timing in the
workspace, and prints the verdict with a summary of the transcript (--json: the stored record).

Judge:
  --provider P         ${providerCatalogue.map((entry) => entry.kind).join(' | ')}
  --model M            the provider's model id (synthetic: optional label)
  --persona NAME       synthetic judge persona: deferential-frontier, robust-frontier,
                       small-open-a, small-open-b (an offline SIMULATION, marked as such)
  --backend B          environment: auto (default), docker, snapshot
  --base-url URL       API base URL (required for ${baseUrlKinds}, e.g. ${baseUrlExample})
  --api-key-env NAME   environment variable with the key (a local compatible server may
                       need none; default: ${keyVariables})
  --temperature T      default 0.7 (App. R); dropped and remembered if the model rejects it
  --max-tokens N       per response; --timeout-ms N per request (default 120000)
  --budget N|unbounded soft tool-call budget (App. R; default: the suite's, else 40);
                       no hard stop (App. R); a 200-turn guard ends a looping judge

${conditionUsage}`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: judgeOptions,
      strict: true,
      allowPositionals: false,
    });
    if (!values.provider) throw new UsageError('name the judge with --provider and --model');
    const condition = conditionFromFlags(values);
    const backend = parseBackend(values.backend);
    const synthetic = isSimulatedProvider(values.provider);
    if (synthetic && !values.persona)
      throw new UsageError('the synthetic judge needs --persona NAME');
    const settings = synthetic
      ? null
      : modelSettingsSchema.safeParse({
          provider: values.provider,
          model: values.model,
          ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
          ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}),
          ...(values.temperature ? { temperature: Number(values.temperature) } : {}),
          ...(values['max-tokens'] ? { maxTokens: Number(values['max-tokens']) } : {}),
          ...(values['timeout-ms'] ? { timeoutMs: Number(values['timeout-ms']) } : {}),
        });
    if (settings && !settings.success) {
      throw new UsageError(
        settings.error.issues
          .map((issue) => `--${kebab(String(issue.path[0] ?? 'provider'))}: ${issue.message}`)
          .join('; '),
      );
    }
    const model = settings?.data ?? null;
    // A missing key is reported here, before any workspace change or model call.
    const realProvider = model ? createProvider(model, process.env) : null;

    const engine = createEngine(workspaceForProcess(values.workspace));
    const controller = new AbortController();
    const abort = () => controller.abort(new Error('interrupted'));
    process.once('SIGINT', abort);
    try {
      const { suiteId, item, taxonomies, toolBudget: suiteBudget } = itemFromFlags(engine, values);
      const budget = parseBudget(
        values.budget ?? (suiteBudget === undefined ? undefined : String(suiteBudget)),
      );
      await removeOrphans().catch(() => []);
      const result = await judgeOneRepIn(engine, {
        suiteId,
        item,
        taxonomies,
        condition,
        backend,
        budget,
        model: model && realProvider ? { settings: model, provider: realProvider } : null,
        ...(values.persona
          ? {
              synthetic: {
                persona: values.persona,
                ...(values.model ? { label: values.model } : {}),
                seed: values.seed ?? '0',
              },
            }
          : {}),
        signal: controller.signal,
        onProgress: (line) => io.err(`  ${line}`),
        onRetry: (info) =>
          io.err(
            `retrying after ${info.kind} (${info.status ?? '-'}); waiting ${Math.round(info.delayMs)} ms`,
          ),
      });
      if (values.json) io.out(JSON.stringify(storedJudgeRep(engine, result.repId), null, 2));
      else printSummary(result, io);
      return exitCodes.ok;
    } finally {
      process.off('SIGINT', abort);
      engine.close();
    }
  },
};

function parseBudget(value: string | undefined) {
  if (value === undefined) return toolBudget();
  if (value === 'unbounded') return toolBudget(null);
  const soft = Number(value);
  if (!Number.isInteger(soft) || soft < 1)
    throw new UsageError(`--budget must be a whole number ≥ 1 or "unbounded", not "${value}"`);
  return toolBudget(soft);
}

function parseBackend(value: string | undefined): EnvironmentBackend {
  if (value === undefined) return 'auto';
  if (value === 'auto' || value === 'docker' || value === 'snapshot') return value;
  throw new UsageError(`--backend must be auto, docker or snapshot, not "${value}"`);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function printSummary(result: JudgeRepResult, io: CliIo): void {
  const { transcript, finalVerdict } = result;
  io.out(`rep ${result.repId}: ${transcript.outcome}`);
  if (finalVerdict?.kind === 'binary')
    io.out(
      `verdict: ${finalVerdict.outcome.toUpperCase()} (confidence ${finalVerdict.confidence})`,
    );
  if (finalVerdict?.kind === 'graded') io.out(`score: ${finalVerdict.score} / 100`);
  if (finalVerdict?.kind === 'error_attribution')
    io.out(`present: ${finalVerdict.present.join(', ') || 'none'}`);
  if (finalVerdict) io.out(`rationale: ${finalVerdict.rationale}`);
  if (transcript.verdictProblems.length)
    io.out(`verdict problems: ${transcript.verdictProblems.join('; ')}`);
  io.out(`tool calls (${transcript.toolCalls.length}):`);
  for (const call of transcript.toolCalls) {
    const mark = call.stopDirective ? '  [stop directive]' : call.isError ? '  [error]' : '';
    io.out(`  ${call.resultNumber}. ${call.name} ${JSON.stringify(call.input)}${mark}`);
  }
  const cost =
    transcript.totals.costUsd === null
      ? 'unknown (no price for this model)'
      : `$${transcript.totals.costUsd.toFixed(4)}`;
  io.out(
    `turns ${transcript.totals.turns}, tokens in ${transcript.totals.inputTokens} / out ${transcript.totals.outputTokens}, cost ${cost}, ${(transcript.totals.durationMs / 1000).toFixed(1)} s`,
  );
}
