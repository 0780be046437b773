/** The face of `substrates/`: what the rest of the engine may use. */
export { allSubstrateTools, containerStateOf, layerSubstrates, toolsServedBy } from './registry';
export type { LayerOptions } from './substrate';
export { checkAnswer } from './web/answer';
export type { WebBackend } from './web/environment';
export { liveWebFor } from './web/live-provision';
export { webRecordingSchema } from './web/live';
export type { WebRecording } from './web/live';
