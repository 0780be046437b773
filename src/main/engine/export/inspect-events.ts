/**
 * A sample's transcript as Inspect events (its `events` list, which the viewer's Transcript tab
 * shows): one model event per judge turn (the messages it was given and the turn it answered),
 * one tool event per tool call with its result, and the score event of the verdict. CueLab keeps
 * no per-turn clock, so every event carries the rep's time. Field names as Inspect's
 * `ModelEvent`, `ToolEvent` and `ScoreEvent` have them.
 */

/** An Inspect chat message as the export writes it (inspect-sample.ts). */
export interface InspectMessage {
  role: string;
  content: string;
  tool_calls?: { id: string; function: string; arguments: unknown; type: 'function' }[];
  tool_call_id?: string;
  function?: string;
  error?: { type: string; message: string };
}

/** A sample's score as Inspect's `Score` (history: edits made since scoring, none here). */
export interface InspectScore {
  value: string | number;
  answer: string;
  explanation: string;
  history: unknown[];
}

/** What the events are built from. */
export interface EventSource {
  /** The conversation, system prompt first. */
  messages: readonly InspectMessage[];
  model: string;
  /** When the rep ran (ISO). */
  timestamp: string;
  /** The verdict score, the one the score event reports. */
  score: InspectScore;
  target: string;
}

/** The model, tool and score events of one sample, in the order they happened. */
export function transcriptEvents(source: EventSource): Record<string, unknown>[] {
  const { messages, model, timestamp } = source;
  const common = (index: number) => ({ timestamp, working_start: index, pending: false });
  const events: Record<string, unknown>[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    events.push({
      event: 'model',
      ...common(events.length),
      model,
      input: messages.slice(0, index),
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: {
        model,
        choices: [{ message, stop_reason: message.tool_calls?.length ? 'tool_calls' : 'stop' }],
        completion: message.content,
      },
      retries: 0,
      cache: null,
      call: null,
      completed: timestamp,
    });
    for (const call of message.tool_calls ?? []) {
      const result = messages
        .slice(index + 1)
        .find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === call.id);
      events.push({
        event: 'tool',
        ...common(events.length),
        type: 'function',
        id: call.id,
        function: call.function,
        arguments: call.arguments,
        result: result?.content ?? '',
        truncated: null,
        ...(result?.error ? { error: result.error } : {}),
        events: [],
        completed: timestamp,
      });
    }
  });
  events.push({
    event: 'score',
    ...common(events.length),
    score: source.score,
    target: source.target,
    intermediate: false,
  });
  return events;
}
