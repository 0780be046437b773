/**
 * The engine's second entry, beside engine.ts: what only a process on this machine can do, for
 * the commands that run locally (`cuelab env`, `demo`, `judge`, `suite verify|build-mini`,
 * `serve`). They build and inspect this machine's Docker images, remove what a stopped engine
 * left, rebuild and verify the built-in suite, or run one rep here. Everything that reads or
 * changes a workspace's studies goes through LabApi instead (engine/api).
 */
export {
  baseImageTag,
  bootstrapImageTag,
  createDockerClient,
  ensureBaseImage,
  ensureBootstrapImage,
  ensurePostgresImage,
  findBaseImage,
  findPostgresImage,
  formatBytes,
  isOrphan,
  listManagedContainers,
  listManagedImages,
  probeDocker,
  removeItemImages,
  removeOrphans,
  requireDocker,
} from './environments';
export { calibrationCheck, findPersona, formatCalibration, loadPersonas } from './simulation';
export {
  builtinSuiteIds,
  ensureSuite,
  formatSuiteJson,
  generateMiniSuite,
  loadBuiltinSuite,
  loadSuiteFile,
  pullSuiteImages,
  resourcesDir,
  suiteImages,
  verifySuite,
} from './suites';
export { judgeOneRep, loadStudySpec, selectItems } from './runner';
export type { EnvironmentBackend } from './environments';
export { createProvider, modelSettingsSchema } from './providers';
export { toolBudget } from './judge';
export type { JudgeRepResult } from './runner';
export type { VerifyRow } from './suites';
export { getSuiteItem, getSuiteSettings, getSuiteTaxonomies, loadJudgeRep } from './store';
