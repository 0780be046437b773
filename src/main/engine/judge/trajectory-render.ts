/**
 * Renders an agent trajectory as numbered lines for the judge. Numbering is a pure function
 * of the trajectory and the inserted turns, so `read_trajectory` and any replay see exactly
 * the lines the judge saw.
 */
import type { AgentMessage, Trajectory } from '../../../shared/trajectory';

/** The tool-call id of an agent-tool-output cue, shown in the rendered call and its result. */
export const agentCheckCallId = 'agent-check';

/** An extra assistant turn placed in the trajectory (cue placements of App. K). */
export interface InsertedTurn {
  /** Inserted after this many original messages (0 = before the first). */
  afterMessage: number;
  /** Text of the assistant turn. */
  text: string;
  /** Marks the turn in the rendered output's spans (e.g. 'cue'). */
  tag: string;
  /**
   * 'turn' (default): a new assistant turn. 'append': the text ends the preceding assistant
   * message (a new turn when that message is not the agent's). 'tool-output': a tool call the
   * agent made and the output it printed.
   */
  style?: 'turn' | 'append' | 'tool-output';
}

/** A range of rendered lines that came from an inserted turn. */
export interface LineSpan {
  tag: string;
  /** 1-based, inclusive. */
  firstLine: number;
  lastLine: number;
  /** Lines of the span before the inserted text (turn, call and result headers). */
  headerLines: number;
}

/** The rendered trajectory. */
export interface RenderedTrajectory {
  /** Lines without numbers; line N is `lines[N - 1]`. */
  lines: string[];
  /** Where inserted turns landed. */
  spans: LineSpan[];
  /**
   * The whole text of each cut tool output, numbered on from the last line: not in the prompt,
   * only served by read_trajectory, so a long pane or log is read in pages, never lost.
   */
  pages: string[];
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
  const limit = options.toolOutputLimit ?? null;
  // Two passes: a cut's marker names where the whole output is paged, after the last numbered
  // line, and that place is known once the trajectory's length is (a marker is always one line,
  // so the second pass has the same length as the first).
  const { lines: firstPass } = renderWith(trajectory, inserted, limit, () => null);
  const pages: string[] = [];
  const rendered = renderWith(trajectory, inserted, limit, (label, text) => {
    const body = pageLines(text);
    pages.push(`### whole tool output (${label})`);
    const first = firstPass.length + pages.length + 1;
    pages.push(...body);
    return { first, last: first + body.length - 1 };
  });
  return { ...rendered, pages };
}

/** Where a cut tool output can be read whole with read_trajectory. */
interface PageRange {
  first: number;
  last: number;
}

type PageWhole = (label: string, text: string) => PageRange | null;

function renderWith(
  trajectory: Trajectory,
  inserted: readonly InsertedTurn[],
  limit: number | null,
  pageWhole: PageWhole,
): { lines: string[]; spans: LineSpan[] } {
  const lines: string[] = [];
  const spans: LineSpan[] = [];
  const insertAt = (position: number) => {
    for (const turn of inserted.filter((candidate) => candidate.afterMessage === position)) {
      const firstLine = lines.length + 1;
      const appendable = turn.style === 'append' && trajectory[position - 1]?.role === 'assistant';
      const header = appendable
        ? []
        : turn.style === 'tool-output'
          ? [
              '### assistant',
              `-> call run_checks (${agentCheckCallId}): {}`,
              `### tool result (run_checks, ${agentCheckCallId})`,
            ]
          : ['### assistant'];
      lines.push(...header, ...splitLines(turn.text));
      spans.push({ tag: turn.tag, firstLine, lastLine: lines.length, headerLines: header.length });
    }
  };
  insertAt(0);
  trajectory.forEach((message, index) => {
    lines.push(...renderMessage(message, limit, pageWhole));
    insertAt(index + 1);
  });
  return { lines, spans };
}

function renderMessage(
  message: AgentMessage,
  toolOutputLimit: number | null,
  pageWhole: PageWhole,
): string[] {
  if (message.role === 'tool') {
    const label = `${message.name ? `${message.name}, ` : ''}${message.tool_call_id ?? 'no id'}`;
    const content = message.content ?? '';
    const cut = toolOutputLimit !== null && content.length > toolOutputLimit;
    const range = cut ? pageWhole(label, content) : null;
    return [
      `### tool result (${label})`,
      ...splitLines(cutToolOutput(content, toolOutputLimit, range ?? undefined)),
    ];
  }
  const out = [`### ${message.role}`];
  if (message.content) out.push(...splitLines(message.content));
  for (const call of message.tool_calls ?? []) {
    out.push(`-> call ${call.function.name} (${call.id}): ${call.function.arguments}`);
  }
  return out;
}

/** Longest line of a paged output: a pane or log written as one line is read in pieces. */
const pageLineCharacters = 1000;

function pageLines(text: string): string[] {
  const out: string[] = [];
  for (const line of splitLines(text)) {
    if (line.length <= pageLineCharacters) out.push(line);
    else {
      for (let at = 0; at < line.length; at += pageLineCharacters) {
        out.push(line.slice(at, at + pageLineCharacters));
      }
    }
  }
  return out;
}

/**
 * Keeps the head and tail of a long tool output and says, in the text the judge reads, how
 * much was cut and that the limit is the item's `render.toolOutputLimit`: a judge (and a
 * researcher reading the prompt) must see that something is missing, never a silent gap.
 * The head gets 60%: error messages and command echoes sit at the start, summaries at the end.
 */
export function cutToolOutput(text: string, limit: number | null, whole?: PageRange): string {
  if (limit === null || text.length <= limit) return text;
  const headLength = Math.floor(limit * 0.6);
  const tailLength = limit - headLength;
  const omitted = text.length - headLength - tailLength;
  const where = whole
    ? `; the whole output is lines ${whole.first}-${whole.last}: read_trajectory ` +
      `start_line=${whole.first} end_line=${whole.last}`
    : '';
  return (
    `${text.slice(0, headLength)}\n[... ${omitted} characters of this tool output cut by CueLab ` +
    `(limit ${limit} per tool output; set the item's render.toolOutputLimit, or ` +
    `--tool-output-limit on import)${where} ...]\n${text.slice(text.length - tailLength)}`
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

/** At most this many lines, and about this many characters, in one read_trajectory answer. */
const pageMaxLines = 400;
const pageMaxCharacters = 40_000;

/**
 * What read_trajectory answers for `first..last`: numbered lines up to a page's size, and, when
 * the page ends before `last`, a line saying where to read on (a page is never a silent cut).
 */
export function trajectoryPage(lines: readonly string[], first: number, last: number): string {
  const from = Math.max(1, first);
  const to = Math.min(lines.length, last, from + pageMaxLines - 1);
  let end = from;
  let size = lines[from - 1]?.length ?? 0;
  while (end < to && size + (lines[end]?.length ?? 0) <= pageMaxCharacters) {
    size += lines[end]?.length ?? 0;
    end += 1;
  }
  const page = numberedLines(lines, from, end);
  const asked = Math.min(lines.length, last);
  return end < asked
    ? `${page}\n[page ends at line ${end} of the ${from}-${asked} asked for: read on with start_line=${end + 1}]`
    : page;
}
