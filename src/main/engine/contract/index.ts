/**
 * The face of `contract/`: the types judge, environments, store and simulation share. It
 * imports none of them, so none of them needs another's folder for a type.
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
  VerdictSource,
} from './transcript';
export { defineTool, toolError } from './tool';
export type { JudgeTool, ToolContext, ToolDefinition, ToolOutcome } from './tool';
export type { Readout, Taxonomy, TaxonomyCategory, Verdict } from './verdict';
