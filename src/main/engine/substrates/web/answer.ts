/**
 * The exact-answer verifier of deep-search items (AJ-Bench Deep Search style): the agent's final
 * message states `Answer: ...`, and the item lists the answers that count. Comparison ignores
 * case, spacing and surrounding punctuation, nothing more, so the label stays deterministic.
 */
import type { Trajectory } from '../../../../shared/trajectory';

/** What the exact-answer check found. */
export interface AnswerCheck {
  /** The agent's stated answer, or null when its last message states none. */
  given: string | null;
  passed: boolean;
  /** One line for `suite verify`: what was given and what was expected. */
  output: string;
}

/** Lower-case, single spaces, without surrounding quotes, punctuation or a leading "the". */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’(\s]+|["'“”‘’).,;:!?\s]+$/g, '')
    .replace(/^the /, '');
}

/** The last `Answer: ...` line of the trajectory's final assistant message. */
export function statedAnswer(trajectory: Trajectory): string | null {
  const last = [...trajectory].reverse().find((message) => message.role === 'assistant');
  const content = typeof last?.content === 'string' ? last.content : '';
  const lines = content.split('\n').filter((line) => /^\s*answer\s*:/i.test(line));
  const line = lines[lines.length - 1];
  return line === undefined ? null : line.replace(/^\s*answer\s*:/i, '').trim();
}

/** Checks the agent's stated answer against the accepted ones. */
export function checkAnswer(trajectory: Trajectory, accepted: readonly string[]): AnswerCheck {
  const given = statedAnswer(trajectory);
  const wanted = accepted.map(normalizeAnswer);
  const passed = given !== null && wanted.includes(normalizeAnswer(given));
  const expected = accepted.map((answer) => `"${answer}"`).join(' or ');
  return {
    given,
    passed,
    output:
      given === null
        ? `the final message states no "Answer: ..." line (expected ${expected})`
        : `answered "${given}"; expected ${expected}: ${passed ? 'correct' : 'wrong'}`,
  };
}
