/**
 * A task folder in the other Terminal-Bench layout than the run's: a Terminal-Bench 1 run
 * (`tb run`) given Terminal-Bench 2 / Harbor tasks (`task.toml`, `environment/Dockerfile`),
 * or a Harbor trial given Terminal-Bench 1 tasks (`task.yaml`, a `Dockerfile` at the root).
 * Each layout's environment is read as its own importer reads it, so the item gets the right
 * container either way and its note says which layout was used; never silently none.
 */
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import {
  composeNetwork,
  composeResources,
  definitionLimits,
  harborResources,
  resourcesField,
  yamlLookup,
} from './resources';
import {
  dockerfileEnvironment,
  dockerfileWorkdir,
  limitFields,
  terminalBenchWorkdir,
} from './task-environment';
import { readTomlScalars } from './toml';
import type { TaskFolder } from './types';

/** An environment a task folder gives, and the disk it asks for (shown only). */
export interface TaskEnvironment {
  environment: Partial<EnvironmentSpec>;
  storageMb?: number;
}

/** A Terminal-Bench 2 (Harbor) task: its prebuilt image or environment/Dockerfile. */
export function harborTaskEnvironment(task: TaskFolder): TaskEnvironment | undefined {
  const toml = readTomlScalars(task.read('task.toml') ?? '');
  const prebuilt = toml.get('environment.docker_image');
  const image = typeof prebuilt === 'string' && prebuilt ? prebuilt : undefined;
  const dockerfile = task.read('environment/Dockerfile');
  const definition = definitionLimits((key) => toml.get(key));
  const limits = limitFields({
    ...resourcesField(harborResources(toml)),
    ...(definition.network !== undefined ? { network: definition.network } : {}),
  });
  const storage = definition.storageMb ? { storageMb: definition.storageMb } : {};
  if (image) {
    const workdir = (dockerfile && dockerfileWorkdir(dockerfile)) ?? terminalBenchWorkdir;
    return { environment: { image, workdir, shell: true, ...limits }, ...storage };
  }
  if (!dockerfile) return undefined;
  return {
    environment: {
      ...dockerfileEnvironment(task, dockerfile, 'environment'),
      shell: true,
      ...limits,
    },
    ...storage,
  };
}

/** A Terminal-Bench 1 task: its root Dockerfile, limits from docker-compose and task.yaml. */
export function terminalBenchTaskEnvironment(task: TaskFolder): TaskEnvironment | undefined {
  const dockerfile = task.read('Dockerfile');
  if (!dockerfile) return undefined;
  const compose = task.read('docker-compose.yaml') ?? task.read('docker-compose.yml');
  const definition = definitionLimits(yamlLookup(task.read('task.yaml')));
  const limits = {
    ...resourcesField(composeResources(compose)),
    network: definition.network ?? composeNetwork(compose),
  };
  return {
    environment: {
      ...dockerfileEnvironment(task, dockerfile, ''),
      shell: true,
      ...limitFields(limits),
    },
    ...(definition.storageMb ? { storageMb: definition.storageMb } : {}),
  };
}
