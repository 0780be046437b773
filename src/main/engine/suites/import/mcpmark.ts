/**
 * MCPMark / AJ-Bench run folders: `messages.json` (OpenAI chat, Anthropic content blocks or
 * OpenAI Responses items) beside the run's `meta.json` (its `execution_result.success` is the
 * gold label). The task's `description.md` is its text when the task folder is found; its
 * `verify.py` is never read.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { convertMessages, firstUserText } from './messages';
import { parseJson, parseWith } from './files';
import { ImportProblem, type Importer } from './types';

const metaSchema = z.looseObject({
  task_name: z.string().min(1).optional(),
  task_id: z.string().min(1).optional(),
  model_name: z.string().optional(),
  mcp: z.string().optional(),
  service: z.string().optional(),
  execution_result: z.looseObject({ success: z.boolean().nullable().optional() }).optional(),
});

const substrates = { filesystem: 'filesystem', postgres: 'database' } as const;

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
    const taskName = (meta.task_name ?? meta.task_id ?? folder.split('/').pop() ?? 'task')
      .split('__')
      .pop()!;
    const taskFolder = context.task(taskName, 'description.md');
    const task = taskFolder?.read('description.md')?.trim() ?? firstUserText(trajectory);
    if (!task) throw new ImportProblem(unit, 'messages: no user message holds the task');
    const service = (meta.mcp ?? meta.service ?? guessService(unit)).toLowerCase();
    const substrate = substrates[service as keyof typeof substrates] ?? 'web';
    const success = meta.execution_result?.success;
    return {
      item: {
        id: runId(folder, taskName),
        dataset: `mcpmark-${service}`,
        substrate,
        task,
        trajectory,
        environment: { files: {}, shell: false },
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
        note: "trajectory only: the task's initial state is not in the run folder",
      },
      flags: trajectory.some((message) => message.role === 'assistant')
        ? []
        : ['agent-never-ran: the trajectory has no assistant turn'],
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

function guessService(path: string): string {
  const known = ['filesystem', 'postgres', 'github', 'notion', 'playwright'];
  const lower = path.toLowerCase();
  return known.find((name) => lower.includes(name)) ?? 'unknown';
}
