/** The face of `api/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { acceptsEmptyRequest, dispatchLabCall } from './dispatch';
export { createEnvironmentService } from './environment-service';
export type { LabHandlers } from './handlers';
export { hostHandlers } from './host-handlers';
export { importHandlers } from './import-handlers';
export { mechanismHandlers } from './mechanism-handlers';
export { createSecrets } from './secrets';
export { studyHandlers } from './study-handlers';
export { cliHandlers } from './cli-handlers';
export { commandHandlers } from './command-handlers';
export { suiteHandlers } from './suite-handlers';
export { createInProcessClient } from './in-process-client';
export { compareHandlers } from './compare-handlers';
export { repHandlers } from './rep-handlers';
