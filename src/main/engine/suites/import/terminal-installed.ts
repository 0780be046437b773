/**
 * An installed agent's run in a Terminal-Bench 1 pane. The harness sets the agent up in the
 * agent's own pane (`source /installed-agent/setup-env.sh`, the install script) and launches
 * it with one command; everything the agent then did is that command's output, written by the
 * agent itself. mini-swe-agent prints each step as `mini-swe-agent (step N, $cost):`, its
 * THOUGHT, one bash block, then `User:` with the command's `<returncode>` and `<output>`:
 * those become the steps. An agent whose log has no known shape keeps its whole log as the
 * one step of its launch command, never the harness's setup.
 */
import { echoEnd, PaneIndex, promptedCommand } from './terminal-pane';
import type { TerminalStep } from './terminal-steps';

/** The steps an installed agent's log gives, and how many steps the log numbers. */
export interface InstalledAgentSteps {
  steps: TerminalStep[];
  /** Agent actions the source shows: the highest step number, else the launch commands. */
  sourceActions: number;
  /** How many numbered steps were found (0: the log has no known shape). */
  numbered: number;
}

const miniHeader = /^mini-swe-agent \(step (\d+)\b[^)]*\):\s*$/;
const fence = /^```\s*$/;
const bareprompt = /^[\w.-]+@[\w.-]+:[^#$\n]*[#$]$/;
const bashFence = /^```(?:bash|sh)?\s*$/;

/** The steps of the installed agent launched by `commands` in `pane`. */
export function installedAgentSteps(pane: string, commands: string[]): InstalledAgentSteps {
  const lines = pane.split('\n');
  const launches: { keys: string; at: number; from: number; to: number }[] = [];
  const index = new PaneIndex(lines);
  let from = 0;
  for (const keys of commands) {
    const at = index.find(keys, from);
    if (at < 0) continue;
    launches.push({ keys, at, from: echoEnd(lines, at, keys), to: lines.length });
    from = at + 1;
  }
  launches.forEach((launch, index) => {
    const next = launches[index + 1];
    if (next) {
      launch.to = next.at;
      return;
    }
    // The agent's log ends where the shell prompts again once the agent has exited.
    let end = lines.length;
    while (end > launch.from && !isPrompt(lines[end - 1]!)) end -= 1;
    launch.to = end > launch.from ? end - 1 : lines.length;
  });
  const steps: TerminalStep[] = [];
  let highest = 0;
  let numbered = 0;
  for (const launch of launches) {
    const log = lines.slice(launch.from, launch.to);
    const mini = miniSweAgentSteps(log);
    highest = Math.max(highest, mini.highest);
    numbered += mini.steps.length;
    if (mini.steps.length > 0) steps.push(...mini.steps);
    else steps.push({ keystrokes: [launch.keys], output: log.join('\n').trimEnd() });
  }
  if (launches.length === 0) {
    for (const keys of commands) {
      steps.push({
        keystrokes: [keys],
        output: '(the final pane does not show this command; its output was not recorded)',
      });
    }
  }
  return { steps, sourceActions: Math.max(highest, numbered > 0 ? 0 : commands.length), numbered };
}

/** Whether a line is a shell prompt, bare (the agent has exited) or with a command. */
function isPrompt(line: string): boolean {
  return promptedCommand(line) !== undefined || bareprompt.test(line.trimEnd());
}

/** mini-swe-agent's printed steps: thought, the bash block, and what `User:` answered. */
function miniSweAgentSteps(log: string[]): { steps: TerminalStep[]; highest: number } {
  const headers: { line: number; number: number }[] = [];
  log.forEach((line, index) => {
    const match = miniHeader.exec(line.trimEnd());
    if (match) headers.push({ line: index, number: Number(match[1]) });
  });
  const steps = headers.map((header, index) => {
    const block = log.slice(header.line + 1, headers[index + 1]?.line ?? log.length);
    return miniStep(block);
  });
  return { steps, highest: Math.max(0, ...headers.map((header) => header.number)) };
}

function miniStep(block: string[]): TerminalStep {
  const open = block.findIndex((line) => bashFence.test(line.trimEnd()));
  const thought = (open < 0 ? block : block.slice(0, open))
    .join('\n')
    .replace(/^THOUGHT:\s*/, '')
    .trim();
  if (open < 0) return { keystrokes: [], ...(thought ? { thought } : {}), output: '' };
  // The observation starts at a `User:` line right after a closing fence; a command's own
  // text (a heredoc) may hold fences and `User:` lines of its own.
  let user = -1;
  let close = -1;
  for (let index = open + 1; index < block.length; index += 1) {
    if (block[index]!.trim() !== 'User:') continue;
    let previous = index - 1;
    while (previous > open && !block[previous]!.trim()) previous -= 1;
    if (previous > open && fence.test(block[previous]!.trimEnd())) {
      user = index;
      close = previous;
      break;
    }
  }
  if (close < 0) {
    for (let index = block.length - 1; index > open; index -= 1) {
      if (fence.test(block[index]!.trimEnd())) {
        close = index;
        break;
      }
    }
  }
  const command = block.slice(open + 1, close < 0 ? block.length : close).join('\n');
  const answer = user < 0 ? [] : block.slice(user + 1);
  const separator = answer.findIndex((line) => line.startsWith('───'));
  const output = (separator < 0 ? answer : answer.slice(0, separator)).join('\n').trim();
  return {
    keystrokes: [command],
    ...(thought ? { thought } : {}),
    output: output || '(no output)',
  };
}
