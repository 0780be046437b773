/**
 * Harbor / Terminal-Bench 2 job folders: trial dirs with `agent/trajectory.json` (ATIF, Harbor's
 * `docs/rfcs/0001-trajectory-format.md`) and `result.json` (Harbor's TrialResult: `task_name`,
 * `task_id.path`, `agent_info`, `verifier_result.rewards.reward`, `exception_info`), and task
 * dirs (`task.toml`, `instruction.md`, `environment/Dockerfile`). The environment is the task's
 * prebuilt `[environment] docker_image` when task.toml names one (as Terminal-Bench 2's tasks
 * do), else its Dockerfile built locally, with the table's `cpus` and memory as its limits. The task's `tests/` and `solution/` are never read;
 * of the result only the reward is, as the gold label.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import type { AgentMessage } from '../../../../shared/trajectory';
import { contentText } from './messages';
import { parseJson, parseWith } from './files';
import { definitionLimits, harborResources, resourcesField } from './resources';
import { sourceActions } from './step-count';
import { terminalBenchTaskEnvironment } from './task-layouts';
import {
  dockerfileEnvironment,
  dockerfileWorkdir,
  limitFields,
  terminalBenchWorkdir,
} from './task-environment';
import { readTomlScalars } from './toml';
import { ImportProblem, type ImportContext, type Importer } from './types';

const toolCallSchema = z.looseObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: z.unknown().optional(),
});

const stepSchema = z.looseObject({
  source: z.enum(['system', 'user', 'agent']),
  message: z.unknown().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  observation: z
    .looseObject({
      results: z.array(
        z.looseObject({
          source_call_id: z.string().nullable().optional(),
          // ATIF lets a result hold only references to subagent trajectories, no content.
          content: z.unknown().optional(),
          subagent_trajectory_ref: z
            .array(
              z.looseObject({
                session_id: z.string(),
                trajectory_path: z.string().nullable().optional(),
              }),
            )
            .nullable()
            .optional(),
        }),
      ),
    })
    .nullable()
    .optional(),
});

const trajectorySchema = z.looseObject({
  schema_version: z.string().regex(/^ATIF/i, 'not an ATIF trajectory'),
  agent: z
    .looseObject({ name: z.string().optional(), model_name: z.string().optional() })
    .optional(),
  steps: z.array(stepSchema).min(1, 'the trajectory has no steps'),
  /** The file (beside this one) the trajectory goes on in after a context summarization. */
  continued_trajectory_ref: z.string().nullable().optional(),
});

// A continuation names a file beside the trajectory; a stranger's name may not climb out.
const continuationName = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;
/** Most continuation files followed for one trial (Terminus-2 writes one per summarization). */
const maxContinuations = 64;

const resultSchema = z.looseObject({
  task_name: z.string().min(1).optional(),
  trial_name: z.string().min(1).optional(),
  task_id: z.looseObject({ path: z.string().optional() }).nullable().optional(),
  agent_info: z
    .looseObject({
      name: z.string().optional(),
      model_info: z
        .looseObject({ name: z.string().optional(), provider: z.string().nullable().optional() })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  exception_info: z.looseObject({ exception_type: z.string().optional() }).nullable().optional(),
  verifier_result: z
    .looseObject({ rewards: z.record(z.string(), z.number()).nullable().optional() })
    .nullable()
    .optional(),
});

/** Reads Harbor trials. */
export const harborImporter: Importer = {
  format: 'harbor',
  units: (context) =>
    context.files.filter((path) => {
      if (!path.endsWith('agent/trajectory.json')) return false;
      const trial = dirname(dirname(path));
      return context.has(trial === '.' ? 'result.json' : `${trial}/result.json`);
    }),
  read(unit, context) {
    const file = context.read(unit);
    const atif = parseWith(trajectorySchema, parseJson(file), unit);
    const steps = [...atif.steps, ...continuations(unit, atif.continued_trajectory_ref, context)];
    const trial = dirname(dirname(unit));
    const resultPath = trial === '.' ? 'result.json' : `${trial}/result.json`;
    const result = parseWith(resultSchema, parseJson(context.read(resultPath)), resultPath);
    const trajectory = convertSteps(steps);
    // Registry tasks are named `<dataset>/<task>`; the task folder is the last part.
    const taskName =
      result.task_name?.split('/').pop() ||
      result.task_id?.path?.split('/').filter(Boolean).pop() ||
      trial.split('/').pop() ||
      trial;
    const task = context.task(taskName, 'task.toml', unit);
    // A Terminal-Bench 1 task folder of that name (task.yaml, a root Dockerfile) serves as well.
    const tb1Task = task ? undefined : context.task(taskName, 'task.yaml', unit);
    const tb1 = tb1Task ? terminalBenchTaskEnvironment(tb1Task) : undefined;
    const instruction =
      task?.read('instruction.md')?.trim() ??
      trajectory.find((message) => message.role === 'user')?.content ??
      undefined;
    if (!instruction) throw new ImportProblem(unit, 'steps: no user step holds the task');
    const toml = readTomlScalars(task?.read('task.toml') ?? '');
    const prebuilt = toml.get('environment.docker_image');
    const image = typeof prebuilt === 'string' && prebuilt ? prebuilt : undefined;
    const taskDockerfile = task?.read('environment/Dockerfile');
    const dockerfile = image ? undefined : taskDockerfile;
    // The task's [environment] cpus / memory / allow_internet, so the judge's container
    // matches the agent's; a prebuilt image works where its Dockerfile's WORKDIR says.
    const definition = definitionLimits((key) => toml.get(key));
    const limits = limitFields({
      ...resourcesField(harborResources(toml)),
      ...(definition.network !== undefined ? { network: definition.network } : {}),
    });
    const workdir = (taskDockerfile && dockerfileWorkdir(taskDockerfile)) ?? terminalBenchWorkdir;
    const reward = result.verifier_result?.rewards?.reward;
    const gold =
      reward === undefined ? undefined : reward >= 1 ? 'pass' : reward <= 0 ? 'fail' : undefined;
    const flags = trajectory.some((message) => message.role === 'assistant')
      ? []
      : ['agent-never-ran: the trajectory has no agent step'];
    const notes = [
      ...(reward !== undefined && gold === undefined
        ? [`partial reward ${reward}: left unlabelled`]
        : []),
      ...(result.exception_info?.exception_type
        ? [`the trial raised ${result.exception_info.exception_type}`]
        : []),
      ...(image || dockerfile
        ? []
        : tb1
          ? [`environment from ${tb1Task!.label}, a Terminal-Bench 1 task folder (task.yaml)`]
          : [`trajectory only: no task folder with task.toml (or task.yaml) for ${taskName}`]),
    ];
    const agentName = result.agent_info?.name ?? atif.agent?.name;
    const model = result.agent_info?.model_info;
    const modelName =
      model?.name && model.provider && !model.name.includes('/')
        ? `${model.provider}/${model.name}`
        : (model?.name ?? atif.agent?.model_name);
    return {
      item: {
        id: result.trial_name ?? (trial.split('/').pop() || taskName),
        dataset: 'terminal-bench-2',
        substrate: 'terminal',
        task: instruction,
        trajectory,
        // The agent ran as root; the judge runs as the default user unless the user's container
        // cap allows root (CUELAB_CONTAINER_ALLOW_ROOT=1): a suite cannot raise it.
        environment: image
          ? { image, workdir, shell: true, ...limits }
          : task && dockerfile
            ? { ...dockerfileEnvironment(task, dockerfile, 'environment'), shell: true, ...limits }
            : (tb1?.environment ?? { files: {}, shell: false }),
        ...(gold ? { gold } : {}),
        provenance: {
          source: unit,
          format: 'harbor',
          sha256: file.sha256,
          instance: taskName,
          ...(agentName ? { agent: [agentName, modelName].filter(Boolean).join(' / ') } : {}),
        },
        ...(notes.length ? { note: notes.join('; ') } : {}),
      },
      flags,
      stepCheck: { source: sourceActions(steps), what: 'tool calls' },
      ...(definition.storageMb || tb1?.storageMb
        ? { storageMb: definition.storageMb ?? tb1?.storageMb }
        : {}),
    };
  },
};

/**
 * The steps of the files a linear-history trajectory goes on in (`continued_trajectory_ref`,
 * Terminus-2's `trajectory.cont-<n>.json` beside `trajectory.json`), in order. A missing one
 * is an error: the judge would see the run cut short.
 */
function continuations(
  unit: string,
  first: string | null | undefined,
  context: ImportContext,
): z.output<typeof stepSchema>[] {
  const folder = dirname(unit);
  const steps: z.output<typeof stepSchema>[] = [];
  const seen = new Set<string>();
  for (let next = first; next;) {
    const path = folder === '.' ? next : `${folder}/${next}`;
    if (!continuationName.test(next) || seen.has(next) || seen.size >= maxContinuations)
      throw new ImportProblem(unit, `continued_trajectory_ref: ${next} is not a file beside it`);
    if (!context.has(path))
      throw new ImportProblem(unit, `continued_trajectory_ref: ${next} is missing`);
    seen.add(next);
    const part = parseWith(trajectorySchema, parseJson(context.read(path)), path);
    steps.push(...part.steps);
    next = part.continued_trajectory_ref ?? undefined;
  }
  return steps;
}

/** An observation result as text: its content, else the subagent trajectories it points to. */
function resultText(result: z.output<typeof stepSchema>['observation'] & object): string[] {
  return result.results.map((observed) => {
    const text = contentText(observed.content);
    if (text || !observed.subagent_trajectory_ref?.length) return text;
    return observed.subagent_trajectory_ref
      .map(
        (ref) =>
          `[subagent trajectory ${ref.session_id}${ref.trajectory_path ? ` (${ref.trajectory_path})` : ''}]`,
      )
      .join('\n');
  });
}

/** ATIF steps as chat messages: agent steps carry tool calls, observations become tool results. */
function convertSteps(steps: z.output<typeof stepSchema>[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  steps.forEach((step, index) => {
    const text = contentText(step.message);
    if (step.source !== 'agent') {
      // A system step may observe too (a summarization handing off to subagents): shown inline.
      const observed = step.observation ? resultText(step.observation) : [];
      out.push({ role: step.source, content: [text, ...observed].filter(Boolean).join('\n') });
      return;
    }
    const calls = (step.tool_calls ?? []).map((call) => ({
      id: call.tool_call_id,
      type: 'function' as const,
      function: {
        name: call.function_name,
        arguments:
          typeof call.arguments === 'string'
            ? call.arguments
            : JSON.stringify(call.arguments ?? {}),
      },
    }));
    out.push({
      role: 'assistant',
      content: text || null,
      ...(calls.length ? { tool_calls: calls } : {}),
    });
    const texts = step.observation ? resultText(step.observation) : [];
    for (const [position, observed] of (step.observation?.results ?? []).entries()) {
      const callId = observed.source_call_id ?? calls[position]?.id ?? `step-${index + 1}`;
      out.push({ role: 'tool', tool_call_id: callId, content: texts[position] ?? '' });
    }
  });
  return out;
}
