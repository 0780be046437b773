/**
 * The reasoning a model returned with its turns (a `reasoning_content` / `reasoning` field,
 * `<think>` text, Anthropic thinking), folded under the rationale: it is what the model said to
 * itself, not what it answered, so it opens only when asked.
 */
export function ReasoningNote({
  reasoning,
  side,
}: {
  reasoning: readonly { turn: number; text: string }[];
  side: 'uncued' | 'cued';
}) {
  if (reasoning.length === 0) return null;
  const turns = reasoning.length === 1 ? '1 turn' : `${reasoning.length} turns`;
  return (
    <details className="reasoning-note" data-testid={`reasoning-${side}`}>
      <summary>Reasoning the model returned ({turns})</summary>
      {reasoning.map((entry) => (
        <div key={entry.turn} className="reasoning-turn">
          <span className="reasoning-turn-label">Turn {entry.turn + 1}</span>
          <pre className="reasoning-text">{entry.text}</pre>
        </div>
      ))}
    </details>
  );
}
