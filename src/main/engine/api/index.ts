/** The face of `api/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { acceptsEmptyRequest, dispatchLabCall } from './dispatch';
export { createEnvironmentService } from './environment-service';
export type { HandlerContext, LabHandlers } from './handlers';
export { createLabHandlers } from './lab-handlers';
export { createSecrets } from './secrets';
export { createInProcessClient } from './in-process-client';
