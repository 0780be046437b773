/**
 * A chat completion (unknown until parsed) → neutral response: the message read in the judge's
 * tool-call dialect (dialects/), reasoning from its field or `<think>` tags, and usage with the
 * cached input tokens OpenAI and compatible servers report apart.
 */
import { z } from 'zod';
import { readMessage, type DialectChoice } from './dialects';
import { ProviderError, type ModelResponse, type StopReason } from './types';

export { parseToolArguments } from './dialects';

const completionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.looseObject({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string().optional() }),
              }),
            )
            .nullable()
            .optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      prompt_tokens_details: z
        .object({ cached_tokens: z.number().nullable().optional() })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

function stopReasonOf(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  // Servers without a tool parser say 'stop' even when the turn is tool calls.
  if (hasToolCalls && (reason === 'stop' || reason === 'tool_calls')) return 'tool_use';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_use';
  if (reason === 'stop') return 'end_turn';
  if (reason === 'length') return 'max_tokens';
  return 'other';
}

/**
 * A chat completion → neutral response, its message read in `dialect` (default: structured
 * only, as OpenAI's own API answers). Missing tool-call ids get `call_<n>`; a server that
 * reports no usage counts as 0 tokens. A message no dialect reads cleanly throws
 * ProviderError('unreadable_reply') carrying the raw message.
 */
export function fromOpenAICompletion(
  body: unknown,
  requestedModel: string,
  dialect: DialectChoice = 'structured',
): ModelResponse {
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError(
      'bad_response',
      `The chat completion for ${requestedModel} could not be read: ` +
        `${parsed.error.issues[0]?.message ?? 'unexpected shape'}. Check the base URL.`,
    );
  }
  const completion = parsed.data;
  const choice = completion.choices[0]!;
  const structuredCalls = (choice.message.tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }));
  const read = readMessage(choice.message, structuredCalls, dialect, requestedModel);
  const cached = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    text: read.text,
    toolCalls: read.toolCalls,
    stopReason: stopReasonOf(choice.finish_reason, read.toolCalls.length > 0),
    usage: {
      // prompt_tokens counts the cached ones too, as the neutral inputTokens does.
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
      ...(cached > 0 ? { cacheReadTokens: cached } : {}),
    },
    model: completion.model || requestedModel,
    ...(read.reasoning ? { reasoning: read.reasoning } : {}),
    dialect: read.dialect,
  };
}
