/**
 * The exact prompt of one rep as LabApi answers it (`previewPrompt`, `previewItemPrompt`).
 * Apart from lab-api.ts so method files can use it without importing the whole map.
 */
import { z } from 'zod';

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
