/** A suite as LabApi lists it; apart from lab-api.ts so method files can use it. */
import { z } from 'zod';

/** One suite of judged items, as listed. */
export const suiteSummarySchema = z.object({
  /** Stable identifier, e.g. `cuelab-mini`. */
  id: z.string(),
  /** Human name. */
  name: z.string(),
  /** One-paragraph description. */
  description: z.string(),
  /** Number of items in the suite. */
  itemCount: z.number().int().nonnegative(),
  /** Where it came from: shipped with CueLab or imported by the researcher. */
  origin: z.enum(['builtin', 'imported']),
});
