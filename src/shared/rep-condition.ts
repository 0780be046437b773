/**
 * One judge rep's experimental condition: what it judges, and the cue and mitigations it
 * runs under. The CLI flags, `previewPrompt` and study arms all reduce to this.
 */
import { z } from 'zod';
import {
  cueDirectionSchema,
  cueSpecSchema,
  mitigationSpecSchema,
  placementNameSchema,
} from './cue-spec';
import { cueFamilySchema } from './cue-family';

/** A rep's condition; an uncued rep has no `cue`. */
export const repConditionSchema = z
  .strictObject({
    /** App. G dimension id, or `error_attribution` (§3.2). */
    dimension: z.string().min(1).default('task_success'),
    cue: cueSpecSchema.optional(),
    /** Required with a cue: severity asserts failure, leniency success (App. D). */
    direction: cueDirectionSchema.optional(),
    placement: placementNameSchema.default('system'),
    mitigations: z.array(mitigationSpecSchema).default([]),
    /** Study seed (App. R: 17): fixes scattered cue positions. */
    seed: z.number().int().default(17),
    /** The category `{cat}` names in an error-attribution cue (default: all of them). */
    category: z.string().optional(),
    /** A family cue's family as the study keeps it; absent: the registry's. */
    cueFamily: cueFamilySchema.optional(),
  })
  .refine((condition) => !condition.cue || condition.direction, {
    message: 'a cue needs a direction: severity or leniency',
    path: ['direction'],
  });

export type RepCondition = z.output<typeof repConditionSchema>;
export type RepConditionInput = z.input<typeof repConditionSchema>;
