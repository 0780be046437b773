/**
 * An agent's trajectory as suites store it: OpenAI-style chat messages with tool calls and
 * tool results ("the suite format"). Parsed from unknown input before use.
 */
import { z } from 'zod';

/** One tool call the agent made. `arguments` is the JSON string the agent emitted. */
export const agentToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

/** One message of the agent's conversation. */
export const agentMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable().default(null),
  tool_calls: z.array(agentToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

/** The whole trajectory, in order; at least one message. */
export const trajectorySchema = z.array(agentMessageSchema).min(1);

export type AgentToolCall = z.output<typeof agentToolCallSchema>;
export type AgentMessage = z.output<typeof agentMessageSchema>;
export type Trajectory = z.output<typeof trajectorySchema>;
