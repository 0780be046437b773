/**
 * The CPU and memory a task's own definition gives its container, carried into the imported
 * item's `environment.resources` so the judge's container matches the agent's. The
 * Docker backend honours them up to the user's container cap (`CUELAB_CONTAINER_MAX_CPUS`,
 * `…_MAX_MEMORY_MB`), which no suite can raise. Storage is read to be shown, not carried: the
 * backend has no disk quota to give it (see item-settings.ts).
 */
import { parse as parseYaml } from 'yaml';
import type { TomlScalar } from './toml';

/** Limits read from a task definition; any may be absent. */
export interface TaskResources {
  cpus?: number;
  memoryMb?: number;
  pids?: number;
}

/**
 * A size such as Harbor's deprecated `memory = "2G"` or Compose's `mem_limit: 4g` / `512M` /
 * `500MB` / a byte count, in MiB (whole, at least 16 as the suite format requires); undefined
 * when it is not a size. Suffixes are binary (k = KiB), as both tools read them.
 */
export function sizeInMb(value: unknown): number | undefined {
  if (typeof value === 'number') return wholeMb(value / (1024 * 1024));
  if (typeof value !== 'string') return undefined;
  const size = /^\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)i?b?\s*$/i.exec(value);
  if (!size) return undefined;
  const scale = {
    '': 1 / (1024 * 1024),
    b: 1 / (1024 * 1024),
    k: 1 / 1024,
    m: 1,
    g: 1024,
    t: 1024 * 1024,
  };
  const unit = size[2]!.toLowerCase() as keyof typeof scale;
  return wholeMb(Number(size[1]) * scale[unit]);
}

function wholeMb(mb: number): number | undefined {
  return Number.isFinite(mb) && mb > 0 ? Math.max(16, Math.round(mb)) : undefined;
}

function cpuCount(value: unknown): number | undefined {
  const cpus = typeof value === 'string' ? Number(value) : value;
  return typeof cpus === 'number' && Number.isFinite(cpus) && cpus > 0 && cpus <= 64
    ? cpus
    : undefined;
}

/**
 * A Harbor `task.toml`'s `[environment]`: `cpus`, and `memory_mb` (Harbor's current field) or
 * the deprecated `memory` size string that Harbor's own example tasks still use.
 */
export function harborResources(toml: ReadonlyMap<string, TomlScalar>): TaskResources {
  const cpus = cpuCount(toml.get('environment.cpus'));
  const exact = toml.get('environment.memory_mb');
  const memoryMb =
    typeof exact === 'number' ? wholeMb(exact) : sizeInMb(toml.get('environment.memory'));
  return { ...(cpus ? { cpus } : {}), ...(memoryMb ? { memoryMb } : {}) };
}

/**
 * A Terminal-Bench 1 task's `docker-compose.yaml`: the agent's service (`client`, else the first
 * one) with `cpus` / `mem_limit` or `deploy.resources.limits.{cpus,memory}`. A file that does
 * not parse gives nothing: the limits are a fidelity detail, never a reason to skip the run.
 */
export function composeResources(text: string | undefined): TaskResources {
  if (!text) return {};
  let document: unknown;
  try {
    document = parseYaml(text, { maxAliasCount: 16 });
  } catch {
    return {};
  }
  const services = (document as { services?: unknown } | null)?.services;
  if (!services || typeof services !== 'object') return {};
  const all = services as Record<string, unknown>;
  const service = (all.client ?? Object.values(all)[0]) as Record<string, unknown> | undefined;
  if (!service || typeof service !== 'object') return {};
  const limits = (
    service.deploy as { resources?: { limits?: Record<string, unknown> } } | undefined
  )?.resources?.limits;
  const cpus = cpuCount(service.cpus ?? limits?.cpus);
  const memoryMb = sizeInMb(service.mem_limit ?? limits?.memory);
  const pids = Number(service.pids_limit ?? limits?.pids);
  return {
    ...(cpus ? { cpus } : {}),
    ...(memoryMb ? { memoryMb } : {}),
    ...(Number.isInteger(pids) && pids >= 8 ? { pids } : {}),
  };
}

/** Whether a compose service is cut off from the network (`network_mode: none`). */
export function composeNetwork(text: string | undefined): boolean | undefined {
  if (!text) return undefined;
  try {
    const document = parseYaml(text, { maxAliasCount: 16 }) as { services?: unknown } | null;
    const all = (document?.services ?? {}) as Record<string, { network_mode?: unknown }>;
    const service = all.client ?? Object.values(all)[0];
    return service?.network_mode === 'none' ? false : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a task definition says beyond cpus and memory: `allow_internet` and the disk it asked
 * for (`storage_mb`, or the older `storage = "10G"`), at the top or under `environment`.
 */
export function definitionLimits(get: (key: string) => unknown): {
  network?: boolean;
  storageMb?: number;
} {
  const first = (key: string) => get(`environment.${key}`) ?? get(key);
  const internet = first('allow_internet');
  const exact = first('storage_mb');
  const storageMb = typeof exact === 'number' ? wholeMb(exact) : sizeInMb(first('storage'));
  return {
    ...(typeof internet === 'boolean' ? { network: internet } : {}),
    ...(storageMb ? { storageMb } : {}),
  };
}

/** A task.yaml's values by dotted key (`environment.allow_internet`), for definitionLimits. */
export function yamlLookup(text: string | undefined): (key: string) => unknown {
  let document: unknown;
  try {
    document = text ? parseYaml(text, { maxAliasCount: 16 }) : undefined;
  } catch {
    document = undefined;
  }
  return (key) =>
    key
      .split('.')
      .reduce<unknown>(
        (value, part) =>
          value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
        document,
      );
}

/** `{ resources }` for an environment spec when any limit was read, else nothing. */
export function resourcesField(resources: TaskResources): { resources?: TaskResources } {
  return Object.keys(resources).length > 0 ? { resources } : {};
}
