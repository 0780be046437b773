/**
 * A SWE-style run's environment as the run itself describes it: the image its config names
 * (SWE-agent 1.x `replay_config.env.deployment.image`, 0.x `environment.…`, mini-swe-agent's
 * `info.config.environment.image`), the container limits of its `docker_args`, and which
 * dataset the instance belongs to (SWE-bench, SWE-Gym, SWE-smith…), read from the instance
 * id, the image and any dataset field, so nothing is filed under a benchmark it is not from.
 */
import type { ContainerResources } from '../../../../shared/suite-format';
import { sizeInMb } from './resources';

/** The repositories SWE-bench (full, Lite and Verified) draws its instances from. */
const sweBenchRepositories = new Set([
  'astropy__astropy',
  'django__django',
  'matplotlib__matplotlib',
  'mwaskom__seaborn',
  'pallets__flask',
  'psf__requests',
  'pydata__xarray',
  'pylint-dev__pylint',
  'pytest-dev__pytest',
  'scikit-learn__scikit-learn',
  'sphinx-doc__sphinx',
  'sympy__sympy',
]);

/** A dataset read from a run, with the error taxonomy that fits it (SWE-bench's, or none). */
export interface SweDataset {
  dataset: string;
  taxonomy?: string;
}

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A config that may be a JSON string inside the trajectory (SWE-agent 1.x `replay_config`). */
export function configObject(config: unknown): Loose | undefined {
  if (typeof config === 'string') {
    try {
      const parsed = JSON.parse(config) as unknown;
      return isObject(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return isObject(config) ? config : undefined;
}

/** The deployment a config describes: 1.x `env.deployment`, 0.x `environment(.deployment)`. */
export function deploymentOf(config: Loose | undefined): Loose | undefined {
  for (const key of ['env', 'environment']) {
    const section = config?.[key];
    if (!isObject(section)) continue;
    if (isObject(section.deployment)) return section.deployment;
    return section;
  }
  return undefined;
}

/** The image a deployment names (`image`, or 0.x's `image_name`), if any. */
export function deploymentImage(deployment: Loose | undefined): string | undefined {
  const image = deployment?.image ?? deployment?.image_name;
  return typeof image === 'string' && image.trim() ? image.trim() : undefined;
}

/**
 * The limits a run's `docker_args` gave its container (`--memory=10g`, `-m 4g`, `--cpus 2`,
 * `--pids-limit=512`); other arguments are not limits and are left out.
 */
export function dockerArgsResources(args: unknown): ContainerResources | undefined {
  if (!Array.isArray(args)) return undefined;
  const words = args
    .filter((arg): arg is string => typeof arg === 'string')
    .flatMap((arg) => arg.trim().split(/\s+/));
  const values = new Map<string, string>();
  words.forEach((word, index) => {
    const pair = /^(--memory|-m|--cpus|--pids-limit)(?:=(.+))?$/.exec(word);
    if (!pair) return;
    const value = pair[2] ?? words[index + 1];
    if (value !== undefined) values.set(pair[1] === '-m' ? '--memory' : pair[1]!, value);
  });
  const memoryMb = sizeInMb(values.get('--memory'));
  const cpus = Number(values.get('--cpus'));
  const pids = Number(values.get('--pids-limit'));
  const resources: ContainerResources = {
    ...(memoryMb ? { memoryMb } : {}),
    ...(Number.isFinite(cpus) && cpus > 0 ? { cpus } : {}),
    ...(Number.isInteger(pids) && pids > 0 ? { pids } : {}),
  };
  return Object.keys(resources).length ? resources : undefined;
}

/**
 * Which dataset an instance is from: a dataset field of the run wins (`SWE-bench_Verified`,
 * `SWE-Gym/SWE-Gym`, `subset: lite`), then the image's publisher (`xingyaoww/` builds SWE-Gym,
 * `swesmith` SWE-smith), then the instance's repository (SWE-bench's twelve), then the run's
 * folder names. Only SWE-bench's instances get SWE-bench's error taxonomy.
 */
export function sweDataset(
  instanceId: string,
  image: string | undefined,
  configs: unknown[],
  source: string,
  fallback: string,
): SweDataset {
  const named = [...configs.flatMap((config) => datasetFields(config, 0)), source].join(' ');
  const family = (text: string): string | undefined => {
    const lower = text.toLowerCase();
    if (/swe[-_ ]?gym/.test(lower)) return 'swe-gym';
    if (/swe[-_ ]?smith/.test(lower)) return 'swe-smith';
    if (/multimodal/.test(lower)) return 'swe-bench-multimodal';
    if (/verified/.test(lower)) return 'swe-bench-verified';
    if (/swe[-_ ]?bench[-_ ]?lite|(^|[^a-z])lite([^a-z]|$)/.test(lower)) return 'swe-bench-lite';
    return undefined;
  };
  const fromImage = image
    ? image.includes('xingyaoww/')
      ? 'swe-gym'
      : family(image.replace(/sweb\.eval\.x86_64\.[^:]*/, ''))
    : undefined;
  const repository = instanceId.replace(/-\d+$/, '');
  const fromRepository = sweBenchRepositories.has(repository) ? 'swe-bench' : undefined;
  const declared = family(named);
  // A folder called "verified" names SWE-bench Verified only for SWE-bench's own repositories.
  const dataset =
    fromImage ??
    (declared && (declared !== 'swe-bench-verified' || fromRepository) ? declared : undefined) ??
    fromRepository ??
    fallback;
  return dataset.startsWith('swe-bench')
    ? { dataset, taxonomy: 'swe-bench-verified' }
    : { dataset };
}

/** Every string under a key naming a dataset (`dataset`, `subset`, SWE-agent's `output_dir`, which ends in the dataset), shallowly. */
function datasetFields(value: unknown, depth: number): string[] {
  if (!isObject(value) || depth > 4) return [];
  return Object.entries(value).flatMap(([key, entry]) =>
    typeof entry === 'string'
      ? /^(dataset|dataset_name|dataset_path|subset|benchmark|instances_path|output_dir)$/i.test(
          key,
        )
        ? [entry]
        : []
      : datasetFields(entry, depth + 1),
  );
}

/** Whether an instance's repository is one of SWE-bench's (whose eval images are published). */
export function isSweBenchRepository(instanceId: string): boolean {
  return sweBenchRepositories.has(instanceId.replace(/-\d+$/, ''));
}
