/**
 * mini-swe-agent `*.traj.json` (a SWE-bench experiments run folder: `trajs/<iid>/<iid>.traj.json`,
 * `preds.json`, `logs/<iid>/report.json`). Both trajectory formats: text actions in the message
 * content (mini-swe-agent-1) and tool calls (1.1 and later).
 */
import { z } from 'zod';
import { convertMessages, firstUserText } from './messages';
import { parseJson, parseWith } from './files';
import { readPredictions, readResolved, sweBenchEnvironment, sweBenchImage } from './swe-bench';
import { ImportProblem, type ImportContext, type Importer } from './types';

const trajectoryFileSchema = z.looseObject({
  messages: z.array(z.unknown()).min(1, 'the run has no messages'),
  info: z
    .looseObject({
      submission: z.string().nullable().optional(),
      exit_status: z.string().nullable().optional(),
      config: z
        .looseObject({ model: z.looseObject({ model_name: z.string().optional() }).optional() })
        .optional(),
    })
    .optional(),
  instance_id: z.string().optional(),
  trajectory_format: z.string().optional(),
});

/** Reads mini-swe-agent runs of SWE-bench instances. */
export const miniSweAgentImporter: Importer = {
  format: 'mini-swe-agent',
  units: (context) => context.files.filter((path) => path.endsWith('.traj.json')),
  read(unit, context) {
    const file = context.read(unit);
    const raw = parseWith(trajectoryFileSchema, parseJson(file), unit);
    const instanceId =
      raw.instance_id ??
      unit
        .split('/')
        .pop()!
        .replace(/\.traj\.json$/, '');
    const trajectory = convertMessages(raw.messages, unit, ['exit']);
    const task = firstUserText(trajectory);
    if (!task) throw new ImportProblem(unit, 'messages: no user message holds the task');
    const patch = raw.info?.submission ?? predictions(context).get(instanceId);
    const report = readResolved(context, instanceId);
    const flags: string[] = [];
    if (!trajectory.some((message) => message.role === 'assistant')) {
      flags.push('agent-never-ran: the trajectory has no assistant turn');
    }
    return {
      item: {
        id: instanceId,
        dataset: 'swe-bench',
        substrate: 'code',
        task,
        trajectory,
        environment: sweBenchEnvironment(sweBenchImage(instanceId), patch ?? undefined),
        taxonomy: 'swe-bench-verified',
        ...(report ? { gold: report.resolved ? ('pass' as const) : ('fail' as const) } : {}),
        provenance: {
          source: unit,
          format: 'mini-swe-agent',
          sha256: file.sha256,
          instance: instanceId,
          ...(raw.info?.config?.model?.model_name
            ? { agent: raw.info.config.model.model_name }
            : {}),
        },
        ...(patch ? {} : { note: 'the run submitted no patch' }),
      },
      flags,
    };
  },
};

const cache = new WeakMap<ImportContext, Map<string, string>>();

/** preds.json of the folder, read once per import. */
export function predictions(context: ImportContext): Map<string, string> {
  let found = cache.get(context);
  if (!found) {
    found = readPredictions(context);
    cache.set(context, found);
  }
  return found;
}
