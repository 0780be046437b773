/** The face of `environments/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { describeEnvironment } from './describe';
export { probeDocker } from './docker-status';
export {
  checkDockerHealth,
  DockerDownError,
  findDockerDown,
  isDockerPauseReason,
} from './docker-health';
export type { DockerHealth } from './docker-health';
export {
  baseImageTag,
  bootstrapImageTag,
  ensureBaseImage,
  ensureBootstrapImage,
  findBaseImage,
  findPostgresImage,
  formatBytes,
} from './docker/bootstrap';
export { DockerUnavailableError, createDockerClient, requireDocker } from './docker/client';
export { findImage } from './docker/images';
export { isProcessAlive } from './docker/lock';
export {
  isOrphan,
  listManagedContainers,
  listManagedImages,
  removeItemImages,
  removeOrphans,
} from './docker/orphans';
export { prepareItem } from './docker/prepare';
export { withRep } from './docker/rep';
export { DockerHostPool } from './hosts/pool';
export { isEnvironmentLost } from './lost';
export { provisionEnvironment, provisionTrajectoryOnly, specNeedsDocker } from './provision';
export type { EnvironmentBackend } from './provision';
export { removeKeptSnapshots } from './snapshot';
export type { ProvisionedEnvironment } from './snapshot';
export { ensurePostgresImage } from './docker/bootstrap';
// The web substrate's answer check and recordings, for callers that provision through here.
export { checkAnswer, liveWebFor, webRecordingSchema } from '../substrates';
export type { WebRecording } from '../substrates';
export { containerCapProblem, shellQuote } from './docker/item-settings';
export type { BootstrapImageKind } from './docker/bootstrap';
