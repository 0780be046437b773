/**
 * Renders an agent trajectory as numbered lines for the judge. Numbering is a pure function
 * of the trajectory and the inserted turns, so `read_trajectory` and any replay see exactly
 * the lines the judge saw.
 */
import type { AgentMessage, Trajectory } from '../../../shared/trajectory';

/** An extra assistant turn placed in the trajectory (cue placements of App. K). */
export interface InsertedTurn {
  /** Inserted after this many original messages (0 = before the first). */
  afterMessage: number;
  /** Text of the assistant turn. */
  text: string;
  /** Marks the turn in the rendered output's spans (e.g. 'cue'). */
  tag: string;
}

/** A range of rendered lines that came from an inserted turn. */
export interface LineSpan {
  tag: string;
  /** 1-based, inclusive. */
  firstLine: number;
  lastLine: number;
}

/** The rendered trajectory. */
export interface RenderedTrajectory {
  /** Lines without numbers; line N is `lines[N - 1]`. */
  lines: string[];
  /** Where inserted turns landed. */
  spans: LineSpan[];
}

/** How tool outputs are cut: at most `toolOutputLimit` characters each; null cuts nothing. */
export interface RenderOptions {
  toolOutputLimit?: number | null;
}

/** Renders the trajectory with inserted turns, one entry per message. */
export function renderTrajectory(
  trajectory: Trajectory,
  inserted: readonly InsertedTurn[] = [],
  options: RenderOptions = {},
): RenderedTrajectory {
  const lines: string[] = [];
  const spans: LineSpan[] = [];
  const insertAt = (position: number) => {
    for (const turn of inserted.filter((candidate) => candidate.afterMessage === position)) {
      const firstLine = lines.length + 1;
      lines.push('### assistant', ...splitLines(turn.text));
      spans.push({ tag: turn.tag, firstLine, lastLine: lines.length });
    }
  };
  insertAt(0);
  trajectory.forEach((message, index) => {
    lines.push(...renderMessage(message, options.toolOutputLimit ?? null));
    insertAt(index + 1);
  });
  return { lines, spans };
}

function renderMessage(message: AgentMessage, toolOutputLimit: number | null): string[] {
  if (message.role === 'tool') {
    const label = message.name ? `${message.name}, ` : '';
    return [
      `### tool result (${label}${message.tool_call_id ?? 'no id'})`,
      ...splitLines(cutToolOutput(message.content ?? '', toolOutputLimit)),
    ];
  }
  const out = [`### ${message.role}`];
  if (message.content) out.push(...splitLines(message.content));
  for (const call of message.tool_calls ?? []) {
    out.push(`-> call ${call.function.name} (${call.id}): ${call.function.arguments}`);
  }
  return out;
}

/**
 * Keeps the head and tail of a long tool output and says, in the text the judge reads, how
 * much was cut and that the limit is the item's `render.toolOutputLimit`: a judge (and a
 * researcher reading the prompt) must see that something is missing, never a silent gap.
 * The head gets 60%: error messages and command echoes sit at the start, summaries at the end.
 */
export function cutToolOutput(text: string, limit: number | null): string {
  if (limit === null || text.length <= limit) return text;
  const headLength = Math.floor(limit * 0.6);
  const tailLength = limit - headLength;
  const omitted = text.length - headLength - tailLength;
  return (
    `${text.slice(0, headLength)}\n[... ${omitted} characters of this tool output cut by CueLab ` +
    `(limit ${limit} per tool output; set the item's render.toolOutputLimit, or ` +
    `--tool-output-limit on import) ...]\n${text.slice(text.length - tailLength)}`
  );
}

function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** Lines `first..last` (1-based, inclusive, clamped) with their numbers, as the judge sees them. */
export function numberedLines(lines: readonly string[], first = 1, last = lines.length): string {
  const from = Math.max(1, first);
  const to = Math.min(lines.length, last);
  const width = String(lines.length).length;
  const out: string[] = [];
  for (let number = from; number <= to; number += 1) {
    out.push(`${String(number).padStart(width, ' ')} | ${lines[number - 1] ?? ''}`);
  }
  return out.join('\n');
}
