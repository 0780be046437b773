/**
 * mini-swe-agent `*.traj.json` (a SWE-bench experiments run folder: `trajs/<iid>/<iid>.traj.json`,
 * `preds.json`, `logs/<iid>/report.json`). Both trajectory formats: text actions in the message
 * content (mini-swe-agent-1) and tool calls (1.1 and later).
 */
import { z } from 'zod';
import { convertMessages, firstUserText } from './messages';
import { sourceActions } from './step-count';

import { parseJson, parseWith } from './files';
import { goldFields, readResolved } from './gold';
import { readPredictions, sweBenchEnvironment, sweBenchImage } from './swe-bench';
import {
  deploymentImage,
  dockerArgsResources,
  isSweBenchRepository,
  sweDataset,
} from './swe-environment';
import { ImportProblem, type ImportContext, type Importer } from './types';

const trajectoryFileSchema = z.looseObject({
  messages: z.array(z.unknown()).min(1, 'the run has no messages'),
  info: z
    .looseObject({
      submission: z.string().nullable().optional(),
      exit_status: z.string().nullable().optional(),
      config: z
        .looseObject({
          model: z.looseObject({ model_name: z.string().optional() }).optional(),
          environment: z.record(z.string(), z.unknown()).optional(),
        })
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
    const { gold, note: goldNote } = goldFields(readResolved(context, instanceId, unit));
    const flags: string[] = [];
    if (!trajectory.some((message) => message.role === 'assistant')) {
      flags.push('agent-never-ran: the trajectory has no assistant turn');
    }
    // The image the run's config names; else the one mini-swe-agent's SWE-bench runner derives
    // from the id, which only SWE-bench's own repositories publish.
    const environmentConfig = raw.info?.config?.environment;
    const image =
      deploymentImage(environmentConfig) ??
      (isSweBenchRepository(instanceId) ? sweBenchImage(instanceId) : undefined);
    const resources = dockerArgsResources(environmentConfig?.run_args);
    const { dataset, taxonomy } = sweDataset(instanceId, image, [raw.info], unit, 'mini-swe-agent');
    const notes = [
      ...(patch ? [] : ['the run submitted no patch']),
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
          format: 'mini-swe-agent',
          sha256: file.sha256,
          instance: instanceId,
          ...(raw.info?.config?.model?.model_name
            ? { agent: raw.info.config.model.model_name }
            : {}),
        },
        ...(notes.length ? { note: notes.join('; ') } : {}),
      },
      flags,
      stepCheck: { source: sourceActions(raw.messages), what: 'agent actions' },
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
