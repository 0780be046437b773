/**
 * The substrates, one line each, in the order their tools are offered. Adding a substrate is
 * its folder and a line here; the judge offers whatever the provisioned environment serves.
 */
import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { ContainerState, JudgeEnvironment, JudgeTool } from '../contract';
import { filesSubstrate } from './files';
import { postgresSubstrate } from './postgres';
import { shellSubstrate } from './shell';
import { sqlSubstrate } from './sql';
import type { LayerOptions, Substrate } from './substrate';
import { webSubstrate } from './web';

const substrates: readonly Substrate[] = [
  shellSubstrate,
  filesSubstrate,
  sqlSubstrate,
  webSubstrate,
  postgresSubstrate,
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

/**
 * The container part of the substrate `spec` asks for, if any: the Docker backend prepares and
 * starts it without naming the substrate. An item holds one such state at most.
 */
export function containerStateOf(spec: EnvironmentSpec): ContainerState | undefined {
  for (const substrate of substrates) {
    const state = substrate.containerState?.(spec);
    if (state) return state;
  }
  return undefined;
}
