/**
 * What the judge would be told about an item's environment, and which tools it would get,
 * without provisioning it: the preview must show the prompt a rep sends, so this reuses the
 * backends' own descriptions and the provisioner's rule for choosing between them.
 */
import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { Trajectory } from '../../../shared/trajectory';
import type { JudgeEnvironment } from '../contract';
import { dockerItemSettings, noContainerCap } from './docker/item-settings';
import { dockerDescription } from './docker/judge-environment';
import { joinPath } from './docker/prepare';
import { specNeedsDocker } from './provision';
import { snapshotCapabilities, snapshotDescription } from './snapshot-environment';
import { containerStateOf, layerSubstrates } from '../substrates';
import { sqliteDatabaseOf } from '../../../shared/substrates/sqlite';

/** An environment that describes itself but cannot be acted on. */
export function describeEnvironment(
  spec: EnvironmentSpec,
  trajectory?: Trajectory,
): { environment: JudgeEnvironment; backend: 'snapshot' | 'docker' } {
  const described = describeLocal(spec, trajectory);
  return { ...described, environment: layerSubstrates(described.environment, spec) };
}

function describeLocal(
  spec: EnvironmentSpec,
  trajectory?: Trajectory,
): { environment: JudgeEnvironment; backend: 'snapshot' | 'docker' } {
  const refuse = () => Promise.reject(new Error('a preview environment cannot be acted on'));
  const acts = { exec: refuse, readFile: refuse, listDir: refuse, sqlQuery: refuse };
  if (!specNeedsDocker(spec)) {
    return {
      backend: 'snapshot',
      environment: {
        capabilities: snapshotCapabilities(spec),
        description: snapshotDescription(spec),
        ...acts,
      },
    };
  }
  // Describing starts nothing: the user's container cap is checked when a rep starts one.
  const settings = dockerItemSettings(spec, trajectory ?? [], noContainerCap);
  const database = sqliteDatabaseOf(spec);
  const state = containerStateOf(spec);
  const databasePath = database ? joinPath(settings.workdir, database.path) : undefined;
  return {
    backend: 'docker',
    environment: {
      capabilities: {
        shell: true,
        files: true,
        sql: databasePath !== undefined || state?.query !== undefined,
      },
      description: dockerDescription(settings, databasePath, state?.description),
      ...acts,
    },
  };
}
