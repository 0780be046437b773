/** The face of `suites/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export {
  builtinSuiteIds,
  ensureSuite,
  loadBuiltinSuite,
  refreshBuiltinSuite,
  resourcesDir,
} from './builtin';
export { describeSpec, importRuns } from './import/index';
export { pullSuiteImages, suiteImages } from './import/pull';
export { loadSuiteFile, parseSuite } from './load';
export { generateMiniSuite } from './mini/generate';
export { formatSuiteJson } from './mini/suite-json';
export { verifySuite } from './mini/verify';
export type { VerifyRow } from './mini/verify';
export { isStagedUpload, stagedUploadRoots, stageUpload } from './import/upload';
export { writeUploadPieces, type UploadPiece, type UploadWrite } from './import/upload-write';
