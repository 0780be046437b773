/**
 * A Terminal-Bench 1 trial as the agent's steps, each command with its own output, never one
 * cut pane. Read from, in order: the agent's own logs (Terminus' `agent-logs/episode-<n>/`: the
 * episode's `response.json` / `response.txt` holds its commands, the next episode's
 * `prompt.txt` the terminal they left), the asciinema recording of the agent's session
 * (`sessions/agent.cast`: typed input splits the output), or `commands.txt` located in the
 * final pane. Outputs are kept whole: the judge's view cuts them with a marked cut.
 */
import type { AgentMessage } from '../../../../shared/trajectory';
import { installedAgentSteps } from './terminal-installed';
import { isHarnessCommand, splitPane, withoutTmuxWait } from './terminal-pane';
import { ImportProblem, type ImportContext } from './types';

/** One action of the agent and what the terminal showed after it. */
export interface TerminalStep {
  /** What the agent typed (one command, or an episode's batch of keystrokes). */
  keystrokes: string[];
  /** The agent's words for the step (Terminus' analysis and plan), if it wrote any. */
  thought?: string;
  output: string;
}

/** Steps and where they were read from. */
export interface TerminalSteps {
  steps: TerminalStep[];
  source: 'agent-logs' | 'agent-transcript' | 'asciinema' | 'pane';
  /** Agent actions the source itself shows (commands sent, numbered steps): the count check. */
  sourceActions: number;
}

/** What commands.txt says the agent phase was. */
export interface AgentPhase {
  /** The agent's keystrokes (or an installed agent's launch command), harness lines left out. */
  commands: string[];
  /** An installed agent: the harness set it up in the pane and launched it with `commands`. */
  installed: boolean;
}

/** The steps of the trial whose files sit in `trial` (a folder relative to the import root). */
export function terminalSteps(
  context: ImportContext,
  trial: string,
  phase: AgentPhase,
  pane: string,
): TerminalSteps {
  const at = (name: string) => (trial === '.' ? name : `${trial}/${name}`);
  const { commands } = phase;
  const episodes = fromAgentLogs(context, at('agent-logs/'), pane);
  if (episodes.steps.length > 0) {
    return {
      steps: episodes.steps,
      source: 'agent-logs',
      sourceActions: Math.max(episodes.commands, commands.length),
    };
  }
  if (phase.installed && commands.length > 0) {
    // The agent ran inside the pane: its own log (steps, thoughts, outputs) is the launch
    // command's output. A recording would only show the harness typing the launch.
    const transcript = installedAgentSteps(pane, commands);
    return { ...transcript, source: transcript.numbered > 0 ? 'agent-transcript' : 'pane' };
  }
  const cast = at('sessions/agent.cast');
  if (context.has(cast)) {
    const steps = fromCast(context.read(cast).text, cast);
    if (steps.length > 0) {
      return { steps, source: 'asciinema', sourceActions: Math.max(steps.length, commands.length) };
    }
  }
  return { steps: splitPane(pane, commands), source: 'pane', sourceActions: commands.length };
}

/** Terminus episodes: commands from each response, output from the next episode's prompt. */
function fromAgentLogs(
  context: ImportContext,
  folder: string,
  pane: string,
): { steps: TerminalStep[]; commands: number } {
  const numbers = [
    ...new Set(
      context.files
        .filter((path) => path.startsWith(folder))
        .map((path) => /^episode-(\d+)\//.exec(path.slice(folder.length))?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number),
    ),
  ].sort((a, b) => a - b);
  const steps: TerminalStep[] = [];
  let commands = 0;
  numbers.forEach((episode, index) => {
    const base = `${folder}episode-${episode}/`;
    const responsePath = ['response.json', 'response.txt']
      .map((name) => base + name)
      .find((path) => context.has(path));
    if (!responsePath) return;
    const response = episodeResponse(context.read(responsePath).text, responsePath);
    commands += response.keystrokes.length;
    const next = numbers[index + 1];
    const prompt = next === undefined ? undefined : `${folder}episode-${next}/prompt.txt`;
    const output =
      prompt && context.has(prompt)
        ? context.read(prompt).text
        : next === undefined
          ? lastOutput(pane, response.keystrokes)
          : '(the harness kept no output for this step)';
    steps.push({ ...response, output });
  });
  return { steps, commands };
}

/** An episode's response: Terminus 1 (`explanation`, `commands[].keystrokes`) or 2 (`plan`). */
function episodeResponse(text: string, path: string): Omit<TerminalStep, 'output'> {
  // Terminus 2 writes the model's raw text: the JSON may sit among other words.
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  let parsed: unknown;
  try {
    parsed = JSON.parse(start >= 0 && end > start ? text.slice(start, end + 1) : text) as unknown;
  } catch {
    // A response the model garbled is still a step the agent took: kept as its words.
    return { keystrokes: [], thought: text.trim() || '(an empty response)' };
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new ImportProblem(path, 'expected a JSON object with commands');
  }
  const response = parsed as Record<string, unknown>;
  const commands = Array.isArray(response.commands) ? (response.commands as unknown[]) : [];
  const keystrokes = commands
    .map((command) =>
      typeof command === 'string'
        ? command
        : typeof (command as { keystrokes?: unknown } | null)?.keystrokes === 'string'
          ? (command as { keystrokes: string }).keystrokes
          : undefined,
    )
    .filter((keys): keys is string => keys !== undefined);
  const words = ['state_analysis', 'analysis', 'explanation', 'plan']
    .map((key) => response[key])
    .filter((value): value is string => typeof value === 'string' && value.trim().length > 0);
  return { keystrokes, ...(words.length ? { thought: words.join('\n\n') } : {}) };
}

/** The output of the last step: the final pane after the step's command, else all of it. */
function lastOutput(pane: string, keystrokes: string[]): string {
  const last = keystrokes
    .map((keys) => keys.trim())
    .filter(Boolean)
    .pop();
  if (!last) return pane;
  const at = pane.lastIndexOf(last.split('\n')[0]!);
  if (at < 0) return pane;
  const lineEnd = pane.indexOf('\n', at);
  return lineEnd < 0 ? '' : pane.slice(lineEnd + 1);
}

/** An asciinema v2 recording split where the agent pressed Enter. */
function fromCast(text: string, path: string): TerminalStep[] {
  const lines = text.split('\n');
  let typed = '';
  let output = '';
  let current: string | undefined;
  const steps: TerminalStep[] = [];
  const finish = () => {
    if (current !== undefined && !isHarnessCommand(current)) {
      const command = withoutTmuxWait(current);
      steps.push({ keystrokes: [command], output: withoutEcho(plainText(output), current) });
    }
    output = '';
  };
  lines.slice(1).forEach((line, index) => {
    if (!line.trim()) return;
    let event: unknown;
    try {
      event = JSON.parse(line) as unknown;
    } catch {
      throw new ImportProblem(`${path}:${index + 2}`, 'not a JSON asciinema event');
    }
    if (!Array.isArray(event) || typeof event[1] !== 'string' || typeof event[2] !== 'string') {
      throw new ImportProblem(`${path}:${index + 2}`, 'expected [time, "i" or "o", text]');
    }
    const [, kind, data] = event as [unknown, string, string];
    if (kind === 'o') output += data;
    if (kind !== 'i') return;
    for (const char of data) {
      if (char === '\r' || char === '\n') {
        finish();
        current = typed;
        typed = '';
      } else if (char === '\u007f') typed = typed.slice(0, -1);
      else if (char >= ' ' || char === '\t') typed += char;
    }
  });
  finish();
  return steps;
}

// Escape and bell, made from their codes: terminal control sequences start with them.
const escape = String.fromCharCode(27);
const bell = String.fromCharCode(7);
const oscSequence = new RegExp(`${escape}\\][^${bell}${escape}]*(${bell}|${escape}\\\\)`, 'g');
const csiSequence = new RegExp(`${escape}\\[[0-9;?]*[ -/]*[@-~]`, 'g');
const shortSequence = new RegExp(`${escape}[()][A-Za-z0-9]|${escape}[=>78cDEHM]`, 'g');

/** Terminal output without colour and cursor escapes, carriage returns made into lines. */
export function plainText(output: string): string {
  return output
    .replace(oscSequence, '')
    .replace(csiSequence, '')
    .replace(shortSequence, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '\n');
}

/** The output without the shell's echo of the command on its first line. */
function withoutEcho(output: string, command: string): string {
  const first = output.indexOf('\n');
  const head = first < 0 ? output : output.slice(0, first);
  return command.trim() && head.includes(command.trim()) && first >= 0
    ? output.slice(first + 1)
    : output;
}

/** The steps as a chat: the instruction, then one `terminal` call and its output per step. */
export function stepMessages(instruction: string, steps: TerminalStep[]): AgentMessage[] {
  const messages: AgentMessage[] = [{ role: 'user', content: instruction }];
  steps.forEach((step, index) => {
    const id = `step-${index + 1}`;
    messages.push({
      role: 'assistant',
      content: step.thought ?? null,
      ...(step.keystrokes.length
        ? {
            tool_calls: [
              {
                id,
                type: 'function' as const,
                function: {
                  name: 'terminal',
                  arguments: JSON.stringify({ keystrokes: step.keystrokes }),
                },
              },
            ],
          }
        : {}),
    });
    if (step.keystrokes.length) {
      messages.push({ role: 'tool', tool_call_id: id, name: 'terminal', content: step.output });
    }
  });
  return messages;
}
