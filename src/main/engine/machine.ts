/**
 * The engine's second entry, beside engine.ts: what only a process on this machine can do, for
 * the commands that run locally (`cuelab env`, `demo`, `judge`, `suite verify|build-mini`,
 * `serve`, `validate`). They build and inspect this machine's Docker images, remove what a stopped engine
 * left, rebuild and verify the built-in suite, or run one rep here. Everything that reads or
 * changes a workspace's studies goes through LabApi instead (engine/api). What needs the
 * workspace takes the Engine, never its store, so the CLI is handed no table.
 */
import type { SuiteItem, SuiteTaxonomy, ToolBudgetSetting } from '../../shared/suite-format';
import type { Engine } from './engine';
import { engineStore } from './engine-store';
import { judgeOneRep, type JudgeOneRequest, type JudgeRepResult } from './runner';
import { loadJudgeRep } from './store/faces/reps';
import { getSuiteItem, getSuiteSettings, getSuiteTaxonomies } from './store/faces/suites';
import { ensureSuite } from './suites';

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
  specNeedsDocker,
} from './environments';
export { calibrationCheck, findPersona, formatCalibration, loadPersonas } from './simulation';
export {
  builtinSuiteIds,
  formatSuiteJson,
  generateMiniSuite,
  loadBuiltinSuite,
  loadSuiteFile,
  pullSuiteImages,
  resourcesDir,
  suiteImages,
  verifySuite,
} from './suites';
export { loadStudySpec, runValidation, selectItems } from './runner';
export type { EnvironmentBackend } from './environments';
export {
  checkProvider,
  combineTrust,
  createProvider,
  DEFAULT_API_KEY_ENV,
  formatProviderCheck,
  modelSettingsSchema,
  requireTrustedEndpoint,
  saveProviderCheck,
  trustFromEnv,
} from './providers';
export { toolBudget } from './judge';
export { readRegularFile } from './input-limits';
export type { JudgeOneRequest, JudgeRepResult } from './runner';
export type { VerifyRow } from './suites';

/** A suite stored in the engine's workspace, importing a built-in one on first use. */
export function ensureWorkspaceSuite(engine: Engine, suiteId: string): { items: SuiteItem[] } {
  return ensureSuite(engineStore(engine), suiteId);
}

/** One item of a suite stored in the engine's workspace, with what the rep needs beside it. */
export function workspaceSuiteItem(
  engine: Engine,
  suiteId: string,
  itemId: string,
): { item: SuiteItem; taxonomies: SuiteTaxonomy[]; toolBudget: ToolBudgetSetting | undefined } {
  const store = engineStore(engine);
  return {
    item: getSuiteItem(store, suiteId, itemId),
    taxonomies: getSuiteTaxonomies(store, suiteId),
    toolBudget: getSuiteSettings(store, suiteId).toolBudget,
  };
}

/** Runs one rep on this machine and stores it in the engine's workspace (`cuelab judge`). */
export function judgeOneRepIn(engine: Engine, request: JudgeOneRequest): Promise<JudgeRepResult> {
  return judgeOneRep(engineStore(engine), request);
}

/** A stored rep as `cuelab judge --json` prints it, or null. */
export function storedJudgeRep(engine: Engine, repId: string): Record<string, unknown> | null {
  return loadJudgeRep(engineStore(engine), repId);
}
