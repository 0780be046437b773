/**
 * MCPMark / AJ-Bench run folders: `messages.json` beside the run's `meta.json` (its
 * `execution_result.success` is the gold label), as MCPMark's evaluator writes them
 * (`src/evaluator.py`, `src/results_reporter.py`): messages as OpenAI Agents SDK items
 * (`_convert_to_sdk_format` in `src/agents/base_agent.py`), or OpenAI chat / Anthropic blocks
 * from older runs. The task's `description.md` is its text when the task folder is found; its
 * `verify.py` is never read. Filesystem and Postgres runs get their end state rebuilt
 * (mcpmark-state.ts).
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { filesystemState, postgresState, type RunState } from './mcpmark-state';
import { convertMessages, firstUserText } from './messages';
import { sourceActions } from './step-count';
import { parseJson, parseWith } from './files';
import { ImportProblem, type Importer } from './types';
import { postgresName } from '../../../../shared/substrates/postgres';

const metaSchema = z.looseObject({
  task_name: z.string().min(1).optional(),
  task_id: z.string().min(1).optional(),
  model_name: z.string().optional(),
  mcp: z.string().optional(),
  service: z.string().optional(),
  execution_result: z.looseObject({ success: z.boolean().nullable().optional() }).optional(),
});

const substrates = { filesystem: 'filesystem', postgres: postgresName } as const;

const taskMetaSchema = z.looseObject({ category_id: z.string().min(1).optional() });

/** Reads MCPMark runs. */
export const mcpmarkImporter: Importer = {
  format: 'mcpmark',
  units: (context) =>
    context.files.filter((path) => {
      if (path.split('/').pop() !== 'messages.json') return false;
      const folder = dirname(path);
      return context.has(folder === '.' ? 'meta.json' : `${folder}/meta.json`);
    }),
  read(unit, context) {
    const file = context.read(unit);
    const folder = dirname(unit);
    const metaPath = folder === '.' ? 'meta.json' : `${folder}/meta.json`;
    const meta = parseWith(metaSchema, parseJson(context.read(metaPath)), metaPath);
    const raw = parseJson(file);
    const list = Array.isArray(raw) ? raw : (raw as { messages?: unknown }).messages;
    const trajectory = convertMessages(list, unit);
    if (trajectory.length === 0) throw new ImportProblem(unit, 'messages: the run has no messages');
    // MCPMark names a run `<category>__<task>` (task_manager.py's `name`).
    const fullName = meta.task_name ?? meta.task_id ?? folder.split('/').pop() ?? 'task';
    const taskName = fullName.split('__').pop()!;
    const taskFolder = context.task(taskName, 'description.md', unit);
    const task = taskFolder?.read('description.md')?.trim() ?? firstUserText(trajectory);
    if (!task) throw new ImportProblem(unit, 'messages: no user message holds the task');
    const service = (meta.mcp ?? meta.service ?? guessService(unit)).toLowerCase();
    const substrate = substrates[service as keyof typeof substrates] ?? 'web';
    const success = meta.execution_result?.success;
    const category = taskCategory(taskFolder?.read('meta.json'), fullName);
    const state: RunState =
      service === 'filesystem' && category
        ? filesystemState(context, category, trajectory)
        : service === 'postgres' && category
          ? postgresState(context, folder, category, trajectory)
          : {
              environment: { files: {}, shell: false },
              note: `trajectory only: MCPMark ${service} environments are not rebuilt`,
            };
    return {
      item: {
        id: runId(folder, taskName),
        dataset: `mcpmark-${service}`,
        substrate,
        task,
        trajectory,
        environment: state.environment,
        ...(service === 'filesystem' ? { taxonomy: 'aj-filesystem' } : {}),
        ...(service === 'postgres' ? { taxonomy: 'aj-postgres' } : {}),
        ...(typeof success === 'boolean'
          ? { gold: success ? ('pass' as const) : ('fail' as const) }
          : {}),
        provenance: {
          source: unit,
          format: 'mcpmark',
          sha256: file.sha256,
          instance: taskName,
          ...(meta.model_name ? { agent: meta.model_name } : {}),
        },
        ...(state.note ? { note: state.note } : {}),
      },
      flags: trajectory.some((message) => message.role === 'assistant')
        ? []
        : ['agent-never-ran: the trajectory has no assistant turn'],
      stepCheck: { source: sourceActions(list as unknown[]), what: 'tool calls' },
    };
  },
};

/** `<model>__<service>[.run-N].<task>`: MCPMark's layout is `<model>__<service>/run-N/<task>/`. */
function runId(folder: string, taskName: string): string {
  const parts = folder.split('/');
  const task = parts[parts.length - 1] || taskName;
  const run = parts[parts.length - 2];
  const model = parts[parts.length - 3];
  if (!run || !model) return task;
  return [model, run === 'run-1' ? undefined : run, task].filter(Boolean).join('.');
}

/** The task's category (its initial state's name): task meta.json, else `<category>__` of the run. */
function taskCategory(metaText: string | undefined, fullName: string): string | undefined {
  if (metaText) {
    try {
      const parsed = taskMetaSchema.safeParse(JSON.parse(metaText));
      if (parsed.success && parsed.data.category_id) return parsed.data.category_id;
    } catch {
      // An unreadable task meta.json: fall back to the run's name.
    }
  }
  const parts = fullName.split('__');
  return parts.length > 1 ? parts[0] : undefined;
}

function guessService(path: string): string {
  const known = ['filesystem', 'postgres', 'github', 'notion', 'playwright'];
  const lower = path.toLowerCase();
  return known.find((name) => lower.includes(name)) ?? 'unknown';
}
