/** The face of `api/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { dispatchLabCall } from './dispatch';
export { createEnvironmentService } from './environment-service';
export type { LabHandlers } from './handlers';
export { createLabHandlers } from './lab-handlers';
export { createTableDraws } from './table-draws';
export { createSecrets } from './secrets';
export { createInProcessClient } from './in-process-client';
