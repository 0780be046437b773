/**
 * Reasoning, wherever a server puts it: the `reasoning_content` field (vLLM before 0.11,
 * llama.cpp, SGLang), the `reasoning` field (vLLM 0.11+, Ollama's /v1, OpenRouter), or
 * `<think>…</think>` in the text when no reasoning parser ran: a whole block, a block whose
 * opening tag the chat template already sent (DeepSeek-R1: text, then `</think>`), or an opened
 * block that never closed (a reply cut short, or a tool call straight after the reasoning).
 */

const OPEN = '<think>';
const CLOSE = '</think>';
const TOOL_CALL = '<tool_call>';

/** The text with its reasoning taken out, and that reasoning (null when there was none). */
export interface ReasoningSplit {
  text: string;
  reasoning: string | null;
}

/** First non-empty reasoning field of a message. */
function reasoningField(message: Record<string, unknown>): string | null {
  for (const key of ['reasoning_content', 'reasoning']) {
    const value = message[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** Splits `<think>` reasoning off `text`: one pass of indexOf, so linear in its length. */
export function splitThinkTags(text: string): ReasoningSplit {
  const open = text.indexOf(OPEN);
  const close = text.indexOf(CLOSE);
  if (close >= 0 && (open < 0 || open < close)) {
    // A closed block, or the closing half of one whose opening tag was in the prompt.
    const start = open >= 0 ? open + OPEN.length : 0;
    const before = open >= 0 ? text.slice(0, open) : '';
    return {
      reasoning: text.slice(start, close).trim(),
      text: (before + text.slice(close + CLOSE.length)).trim(),
    };
  }
  if (open >= 0 && close < 0) {
    // Opened, never closed: reasoning runs to a tool call, or to the end.
    const call = text.indexOf(TOOL_CALL, open);
    const end = call >= 0 ? call : text.length;
    return {
      reasoning: text.slice(open + OPEN.length, end).trim(),
      text: (text.slice(0, open) + text.slice(end)).trim(),
    };
  }
  return { text, reasoning: null };
}

/** The reasoning of one chat-completion message and its text without it. */
export function readReasoning(message: Record<string, unknown>): ReasoningSplit {
  const content = typeof message.content === 'string' ? message.content : '';
  const tagged = splitThinkTags(content);
  const field = reasoningField(message);
  if (field === null) return tagged;
  const reasoning = tagged.reasoning ? `${field}\n${tagged.reasoning}` : field;
  return { text: tagged.text, reasoning };
}
