import type { JudgeEnvironment, JudgeTool } from '../contract';

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
}
