/**
 * LabApi methods for the exact prompt one rep would send (the builder's "See the prompt",
 * `cuelab prompt`): the messages, the tools, and where the cue landed.
 */
import { z } from 'zod';
import { repConditionSchema } from '../rep-condition';

/** A message of the judge's conversation, as the provider adapters receive it. */
export const chatMessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), input: z.unknown() })).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
});

/** The exact prompt of one rep, with where the cue landed ("See the prompt"). */
export const promptPreviewSchema = z.object({
  system: z.string(),
  messages: z.array(chatMessageSchema),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      inputSchema: z.record(z.string(), z.unknown()),
    }),
  ),
  /** `location` is 'system' or an index into `messages`; offsets into that text, end exclusive. */
  cueSpans: z.array(
    z.object({
      location: z.union([z.literal('system'), z.number().int()]),
      start: z.number(),
      end: z.number(),
    }),
  ),
  cue: z
    .object({
      text: z.string(),
      label: z.string(),
      provenance: z.string(),
      citation: z.string().optional(),
    })
    .nullable(),
  /** Which environment backend the rep would use. */
  backend: z.enum(['snapshot', 'docker']),
});

/** Prompt methods. */
export const promptMethods = {
  /** The exact messages and tools a rep of one item under one condition would send. */
  previewPrompt: {
    request: z
      .object({
        suiteId: z.string().min(1),
        itemId: z.string().min(1),
        condition: repConditionSchema.optional(),
      })
      .strict(),
    response: promptPreviewSchema,
  },
  /**
   * The prompt one rep of an item would send: the suite is a suite id of the workspace (a
   * built-in one is imported on first use) or a suite file at `suitePath` on the engine's machine.
   */
  previewItemPrompt: {
    request: z
      .object({
        suiteId: z.string().min(1).optional(),
        suitePath: z.string().min(1).optional(),
        itemId: z.string().min(1),
        condition: repConditionSchema.optional(),
      })
      .strict()
      .refine((request) => (request.suiteId === undefined) !== (request.suitePath === undefined), {
        message: 'give the suite as suiteId or as suitePath (one of them)',
      }),
    response: promptPreviewSchema,
  },
} as const;
