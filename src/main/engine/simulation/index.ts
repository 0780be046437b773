/** The face of `simulation/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { calibrationCheck, formatCalibration } from './calibration-study';
export { syntheticCueOf } from './cue-model';
export { findPersona, loadPersonas } from './personas';
export type { Persona } from './personas';
export { meetsExpectation } from './probes';
export { createSyntheticProvider } from './provider';
export { syntheticPower } from './power-baseline';
export { mitigationEffect, mitigationModelWarnings } from './mitigation-effects';
export { repRate } from './item-calibration';
