/** The face of `substrates/`: what the rest of the engine may use. */
export { allSubstrateTools, toolsServedBy } from './registry';
export { checkAnswer } from './web/answer';
export { withWeb } from './web/environment';
export type { WebBackend } from './web/environment';
export { liveWebFor } from './web/live-provision';
export { webRecordingSchema } from './web/live';
export type { WebRecording } from './web/live';
