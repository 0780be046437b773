/**
 * SWE-bench pieces shared by the mini-swe-agent and SWE-agent readers: the instance's eval
 * image, the agent's patch applied in /testbed, and the resolved label from report.json.
 */
import type { ContainerResources, EnvironmentSpec } from '../../../../shared/suite-format';
import { parseJson } from './files';
import { ImportProblem, type ImportContext } from './types';

/** A SWE-bench instance id: `owner__repo-number`. */
export const instanceIdPattern = /^[A-Za-z0-9_.-]+__[A-Za-z0-9_.-]+-\d+$/;

/**
 * The instance's eval image as SWE-bench publishes it: `__` becomes `_1776_` and the name is
 * lower-case (Docker repository names must be).
 */
export function sweBenchImage(instanceId: string): string {
  return `swebench/sweb.eval.x86_64.${instanceId.replace(/__/g, '_1776_').toLowerCase()}:latest`;
}

/**
 * The environment of a SWE-bench run: the eval image with the agent's `model_patch` applied
 * in /testbed (git apply, falling back to patch with fuzz as SWE-bench's harness does).
 */
export function sweBenchEnvironment(
  image: string,
  patch: string | undefined,
  resources?: ContainerResources,
): Partial<EnvironmentSpec> {
  const setup: string[] = [];
  if (patch && patch.trim()) {
    const body = patch.endsWith('\n') ? patch : `${patch}\n`;
    let marker = 'CUELAB_MODEL_PATCH';
    while (body.includes(marker)) marker += '_';
    setup.push(
      `cat > /tmp/cuelab-model.patch <<'${marker}'\n${body}${marker}\n` +
        'git apply --verbose --reject /tmp/cuelab-model.patch || ' +
        'patch --batch --fuzz=5 -p1 -i /tmp/cuelab-model.patch\n' +
        'status=$?; rm -f /tmp/cuelab-model.patch; exit $status',
    );
  }
  return {
    image,
    workdir: '/testbed',
    shell: true,
    user: sweBenchUser,
    shellInit: condaActivation,
    ...(setup.length ? { setup } : {}),
    ...(resources ? { resources } : {}),
  };
}

/**
 * The non-root user SWE-bench's base images create (`adduser … nonroot` in the harness's
 * Dockerfiles): the judge runs as the image's own user, within any container cap.
 */
export const sweBenchUser = 'nonroot';

/**
 * What SWE-bench's env images put in root's .bashrc (`source /opt/miniconda3/etc/profile.d/
 * conda.sh && conda activate testbed`), for the judge's `sh`: it reads no .bashrc, and `.` of a
 * missing file would end it, so an image without conda just runs the command.
 */
export const condaActivation =
  'if [ -f /opt/miniconda3/etc/profile.d/conda.sh ]; then ' +
  '. /opt/miniconda3/etc/profile.d/conda.sh && conda activate testbed; fi';

/** Predictions of a run folder (preds.json: object or list; all_preds.jsonl), by instance. */
export function readPredictions(context: ImportContext): Map<string, string> {
  const patches = new Map<string, string>();
  for (const path of context.files) {
    const name = path.split('/').pop() ?? '';
    if (name !== 'preds.json' && name !== 'all_preds.jsonl') continue;
    const file = context.read(path);
    const rows: unknown[] = [];
    if (name.endsWith('.jsonl')) {
      file.text.split('\n').forEach((line, index) => {
        if (!line.trim()) return;
        try {
          rows.push(JSON.parse(line) as unknown);
        } catch {
          throw new ImportProblem(`${path}:${index + 1}`, 'not valid JSON');
        }
      });
    } else {
      const parsed = parseJson(file);
      const list: unknown[] = Array.isArray(parsed)
        ? (parsed as unknown[])
        : Object.values(parsed as Record<string, unknown>);
      rows.push(...list);
    }
    for (const row of rows) {
      const entry = row as { instance_id?: unknown; model_patch?: unknown };
      if (typeof entry.instance_id === 'string' && typeof entry.model_patch === 'string') {
        patches.set(entry.instance_id, entry.model_patch);
      }
    }
  }
  return patches;
}
