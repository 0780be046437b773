/**
 * What the judge would be told about an item's environment, and which tools it would get,
 * without provisioning it: the preview must show the prompt a rep sends, so this reuses the
 * backends' own descriptions.
 */
import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { JudgeEnvironment } from '../judge/environment';
import { snapshotCapabilities, snapshotDescription } from './snapshot';

/** An environment that describes itself but cannot be acted on. */
export function describeEnvironment(spec: EnvironmentSpec): {
  environment: JudgeEnvironment;
  backend: 'snapshot' | 'docker';
} {
  const refuse = () => Promise.reject(new Error('a preview environment cannot be acted on'));
  const backend = spec.shell ? 'docker' : 'snapshot';
  return {
    backend,
    environment: {
      capabilities: snapshotCapabilities(spec),
      description: snapshotDescription(spec),
      exec: refuse,
      readFile: refuse,
      listDir: refuse,
      sqlQuery: refuse,
    },
  };
}
