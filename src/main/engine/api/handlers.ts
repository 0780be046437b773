import type { LabMethod, LabResponse } from '../../../shared/lab-api';
import type { z } from 'zod';
import type { labMethods } from '../../../shared/lab-api';

/** The engine side of one method: takes the parsed request, returns the response value. */
export type LabHandler<M extends LabMethod> = (
  request: z.output<(typeof labMethods)[M]['request']>,
) => Promise<LabResponse<M>> | LabResponse<M>;

/** One handler per LabApi method; the compiler keeps this complete. */
export type LabHandlers = { [M in LabMethod]: LabHandler<M> };
