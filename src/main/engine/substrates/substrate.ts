import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { ContainerState, JudgeEnvironment, JudgeTool } from '../contract';
import type { WebBackend } from './web/environment';

/** The backends a provisioning caller chose for layered substrates (today the web's). */
export interface LayerOptions {
  /** Where web tools get their answers; default the item's own offline snapshot. */
  webBackend?: WebBackend;
}

/**
 * One kind of state the judge can investigate and the tools that reach it. The judge offers a
 * substrate's tools when the provisioned environment serves it, so a new substrate adds tools
 * without the judge naming them.
 */
export interface Substrate {
  readonly name: string;
  /** Its tools, in the order the judge is offered them. */
  readonly tools: readonly JudgeTool[];
  /** True when `environment` can serve these tools. */
  servedBy(environment: JudgeEnvironment): boolean;
  /**
   * For a substrate served from the engine over whichever backend holds the rest of the item
   * (the web): `local` with this substrate added when `spec` asks for it, else `local`.
   */
  layer?(local: JudgeEnvironment, spec: EnvironmentSpec, options: LayerOptions): JudgeEnvironment;
  /**
   * For a substrate whose state needs a process in the item's container: its part in the Docker
   * backend when `spec` asks for it, else undefined.
   */
  containerState?(spec: EnvironmentSpec): ContainerState | undefined;
}
