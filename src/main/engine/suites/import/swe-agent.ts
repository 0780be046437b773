/**
 * SWE-agent `*.traj` (an output folder `<iid>/<iid>.traj`, optional `report.json`,
 * `preds.json` / `all_preds.jsonl`). The `history` is what the model saw, minus the
 * demonstrations SWE-agent prepends (`is_demo`); old files with only `trajectory` steps are
 * rebuilt as tool calls.
 */
import { z } from 'zod';
import type { AgentMessage } from '../../../../shared/trajectory';
import { convertMessages, firstUserText } from './messages';
import { sourceActions } from './step-count';
import { parseJson, parseWith } from './files';
import { predictions } from './mini-swe-agent';
import { goldFields, readResolved } from './gold';
import { sweBenchEnvironment } from './swe-bench';
import {
  configObject,
  deploymentImage,
  deploymentOf,
  dockerArgsResources,
  sweDataset,
} from './swe-environment';
import { ImportProblem, type Importer } from './types';

const stepSchema = z.looseObject({
  action: z.string().default(''),
  observation: z.string().default(''),
  thought: z.string().default(''),
});

const sweAgentFileSchema = z.looseObject({
  history: z.array(z.looseObject({ is_demo: z.boolean().optional() })).optional(),
  trajectory: z.array(stepSchema).optional(),
  info: z.looseObject({ submission: z.string().nullable().optional() }).optional(),
  replay_config: z.unknown().optional(),
});

/** Reads SWE-agent runs. */
export const sweAgentImporter: Importer = {
  format: 'swe-agent',
  units: (context) => context.files.filter((path) => path.endsWith('.traj')),
  read(unit, context) {
    const file = context.read(unit);
    const raw = parseWith(sweAgentFileSchema, parseJson(file), unit);
    const config = configObject(raw.replay_config);
    const deployment = deploymentOf(config) ?? deploymentOf(raw);
    const fileName = unit
      .split('/')
      .pop()!
      .replace(/\.traj$/, '');
    const instanceId = problemStatementId(config) ?? fileName;
    const trajectory = raw.history
      ? convertMessages(
          raw.history.filter((message) => message.is_demo !== true),
          unit,
        )
      : fromSteps(raw.trajectory ?? []);
    if (trajectory.length === 0) throw new ImportProblem(unit, 'history: the run has no messages');
    const task = firstUserText(trajectory);
    if (!task) throw new ImportProblem(unit, 'history: no user message holds the task');
    const patch = raw.info?.submission ?? predictions(context).get(instanceId);
    // Only the image the run names: a made-up name would start the judge somewhere else.
    const image = deploymentImage(deployment);
    const resources = dockerArgsResources(deployment?.docker_args);
    const { dataset, taxonomy } = sweDataset(instanceId, image, [config], unit, 'swe-agent');
    const { gold, note: goldNote } = goldFields(readResolved(context, instanceId, unit));
    const flags = trajectory.some((message) => message.role === 'assistant')
      ? []
      : ['agent-never-ran: the trajectory has no assistant turn'];
    const notes = [
      ...(image ? [] : ['trajectory only: the run names no image']),
      ...(goldNote ? [goldNote] : []),
    ];
    return {
      item: {
        id: instanceId,
        dataset,
        substrate: 'code',
        task,
        trajectory,
        environment: image
          ? sweBenchEnvironment(image, patch ?? undefined, resources)
          : { files: {}, shell: false },
        ...(taxonomy ? { taxonomy } : {}),
        ...(gold ? { gold } : {}),
        provenance: {
          source: unit,
          format: 'swe-agent',
          sha256: file.sha256,
          instance: instanceId,
        },
        ...(notes.length ? { note: notes.join('; ') } : {}),
      },
      flags,
      stepCheck: {
        source: raw.history
          ? sourceActions(raw.history.filter((message) => message.is_demo !== true))
          : (raw.trajectory ?? []).length,
        what: 'agent actions',
      },
    };
  },
};

/** The instance id SWE-agent 1.x keeps in `problem_statement.id`. */
function problemStatementId(config: Record<string, unknown> | undefined): string | undefined {
  const statement = config?.problem_statement as { id?: unknown } | undefined;
  const id = statement?.id;
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id) ? id : undefined;
}

function fromSteps(steps: z.output<typeof stepSchema>[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  steps.forEach((step, index) => {
    const id = `step-${index + 1}`;
    out.push({
      role: 'assistant',
      content: step.thought || null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify({ command: step.action }) },
        },
      ],
    });
    out.push({ role: 'tool', content: step.observation, tool_call_id: id });
  });
  return out;
}
