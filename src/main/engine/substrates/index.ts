/** The face of `substrates/`: what the rest of the engine may use. */
export { allSubstrateTools, toolsServedBy } from './registry';
