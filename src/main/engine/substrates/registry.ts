/**
 * The substrates, one line each, in the order their tools are offered. Adding a substrate is
 * its folder and a line here; the judge offers whatever the provisioned environment serves.
 */
import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { JudgeEnvironment, JudgeTool } from '../contract';
import { filesSubstrate } from './files';
import { shellSubstrate } from './shell';
import { sqlSubstrate } from './sql';
import type { LayerOptions, Substrate } from './substrate';
import { webSubstrate } from './web';

const substrates: readonly Substrate[] = [
  shellSubstrate,
  filesSubstrate,
  sqlSubstrate,
  webSubstrate,
];

/** The tools `environment` serves, in the registry's order. */
export function toolsServedBy(environment: JudgeEnvironment): JudgeTool[] {
  return substrates.flatMap((substrate) =>
    substrate.servedBy(environment) ? substrate.tools : [],
  );
}

/** Every substrate's tools, whatever an environment serves (a call names its tool). */
export function allSubstrateTools(): JudgeTool[] {
  return substrates.flatMap((substrate) => substrate.tools);
}

/**
 * `local` with every layered substrate `spec` asks for, in the registry's order: provisioning
 * and the prompt preview both call this, so neither names a substrate.
 */
export function layerSubstrates(
  local: JudgeEnvironment,
  spec: EnvironmentSpec,
  options: LayerOptions = {},
): JudgeEnvironment {
  return substrates.reduce(
    (environment, substrate) =>
      substrate.layer ? substrate.layer(environment, spec, options) : environment,
    local,
  );
}
