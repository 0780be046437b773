/**
 * SWE-agent `*.traj` (an output folder `<iid>/<iid>.traj`, optional `report.json`,
 * `preds.json` / `all_preds.jsonl`). The `history` is what the model saw, minus the
 * demonstrations SWE-agent prepends (`is_demo`); old files with only `trajectory` steps are
 * rebuilt as tool calls.
 */
import { z } from 'zod';
import type { AgentMessage } from '../../../../shared/trajectory';
import { convertMessages, firstUserText } from './messages';
import { parseJson, parseWith } from './files';
import { predictions } from './mini-swe-agent';
import { instanceIdPattern, readResolved, sweBenchEnvironment, sweBenchImage } from './swe-bench';
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
    const instanceId = unit
      .split('/')
      .pop()!
      .replace(/\.traj$/, '');
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
    const image =
      imageOf(raw.replay_config) ??
      (instanceIdPattern.test(instanceId) ? sweBenchImage(instanceId) : undefined);
    const report = readResolved(context, instanceId);
    const flags = trajectory.some((message) => message.role === 'assistant')
      ? []
      : ['agent-never-ran: the trajectory has no assistant turn'];
    return {
      item: {
        id: instanceId,
        dataset: instanceIdPattern.test(instanceId) ? 'swe-bench' : 'swe-agent',
        substrate: 'code',
        task,
        trajectory,
        environment: image
          ? sweBenchEnvironment(image, patch ?? undefined)
          : { files: {}, shell: false },
        ...(instanceIdPattern.test(instanceId) ? { taxonomy: 'swe-bench-verified' } : {}),
        ...(report ? { gold: report.resolved ? ('pass' as const) : ('fail' as const) } : {}),
        provenance: {
          source: unit,
          format: 'swe-agent',
          sha256: file.sha256,
          instance: instanceId,
        },
        ...(image ? {} : { note: 'trajectory only: no image is known for this run' }),
      },
      flags,
    };
  },
};

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

/** The image a SWE-agent 1.x run names in its replay config (`environment.deployment.image`). */
function imageOf(replayConfig: unknown): string | undefined {
  let config = replayConfig;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config) as unknown;
    } catch {
      return undefined;
    }
  }
  const image = (config as { environment?: { deployment?: { image?: unknown } } } | undefined)
    ?.environment?.deployment?.image;
  return typeof image === 'string' && image.length > 0 ? image : undefined;
}
