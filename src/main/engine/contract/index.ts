/**
 * The face of `contract/`: the shapes judge, environments, substrates, store and simulation
 * share, and the two helpers that build a typed tool. It imports none of them, so none of
 * them needs another's folder for a type.
 */
export { defaultToolLimits } from './environment';
export type {
  DirEntry,
  EnvironmentCapabilities,
  ExecResult,
  FetchedPage,
  JudgeEnvironment,
  SqlResult,
  ToolLimits,
  WebSearchResult,
} from './environment';
export type {
  CueSpan,
  JudgeTranscript,
  RepOutcome,
  ToolCallRecord,
  TurnRecord,
} from './transcript';
export { defineTool, toolError } from './tool';
export type { JudgeTool, ToolContext, ToolOutcome } from './tool';
export type { RepRecord } from './rep-record';
export type { ContainerRun, ContainerState, RepRun } from './container-state';
export type { Readout, Taxonomy, Verdict } from './verdict';
