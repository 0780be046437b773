/** The face of `judge/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { budgetForDataset, toolBudget } from './budget';
export type { ToolBudget } from './budget';
export { SOURCE_NAMES, capitalize } from './cues/axes';
export { cuePresets, findCuePreset } from './cues/presets';
export { parseCueFamily } from './cues/families/parse';
export {
  findCueFamily,
  importCueFamily,
  listCueFamilies,
  loadWorkspaceFamilies,
} from './cues/families/registry';
export { defaultToolLimits } from '../contract';
export type { JudgeEnvironment, Readout } from '../contract';
export type { ModelCall } from './loop';
export { parsePlacement, placementName } from './placement';
export type { Placement } from './placement';
export { prepareRep } from './prepare';
export { previewPrompt } from './preview';
export { errorAttributionDimension, readoutFor } from './readout-catalog';
export { judgeRep, modelCallFor } from './run-rep';
export type { JudgedRep, JudgeRepRequest } from './run-rep';
export { runTool, submitVerdictTool } from './tools';
export { renderTrajectory } from './trajectory-render';
