/**
 * Reading a Terminal-Bench 1 pane as tmux captured it: prompt lines, the harness's own
 * commands, and where each command's echo ends. The harness (TmuxSession `_prepare_keys`)
 * types every blocking command as `<command>; tmux wait -S done`, and the pane wraps long
 * lines at its width (160 columns), so a command is found by what the agent meant, not by the
 * exact text of the line.
 */
import type { TerminalStep } from './terminal-steps';

// What the harness types around the agent, never the agent's own: the recording, the screen
// clear, end of input, and an installed agent's setup (AbstractInstalledAgent sources its env
// file and runs its install script in the agent's pane before it launches the agent).
const harnessCommand =
  /^(asciinema rec --stdin \S*agent\.cast|clear|C-d|tmux wait -S done|source \/installed-agent\/setup-env\.sh|source \/installed-agent\/install-agent\.sh(?: (?:&&|\|\|) echo '?INSTALL_[A-Z_]+'?)?)$/;
const tmuxWait = 'tmux wait -S done';
/** A shell prompt line as tmux captures it: `root@host:/app# ls -la`. */
const promptLine = /^(?:\([^)]*\)\s*)?[\w.-]+@[\w.-]+:[^\n#$]*[#$] ?(.*)$/;
/** Shortest start of a wrapped command line that is taken for the command. */
const wrappedMinimum = 40;

/** A command as the agent meant it, without the harness's `; tmux wait -S done`. */
export function withoutTmuxWait(command: string): string {
  const trimmed = command.trimEnd();
  if (!trimmed.endsWith(tmuxWait)) return command;
  const before = trimmed.slice(0, -tmuxWait.length).trimEnd();
  return before.endsWith(';') ? before.slice(0, -1).trimEnd() : command;
}

/** Whether `keys` (joined, Enter left out) is the harness's own, not the agent's. */
export function isHarnessCommand(keys: string): boolean {
  return harnessCommand.test(withoutTmuxWait(keys).trim());
}

/** Whether `keys` sets up an installed agent (its pane then holds the agent's own log). */
export function isInstalledAgentSetup(keys: string): boolean {
  return keys.trim().startsWith('source /installed-agent/');
}

/** The command on a prompt line, without the harness's wait, or undefined. */
export function promptedCommand(line: string): string | undefined {
  const command = promptLine.exec(line.trimEnd())?.[1];
  const meant = command === undefined ? '' : withoutTmuxWait(command).trim();
  return meant ? meant : undefined;
}

/**
 * The line after the echo of the command typed on prompt line `at`: a blocking command's
 * echo ends at its `; tmux wait -S done`, however many lines it wrapped or continued over.
 */
export function echoEnd(lines: readonly string[], at: number, keys: string): number {
  if (lines[at]!.trimEnd().endsWith(tmuxWait)) return at + 1;
  // A long or multi-line command continues over about its length in lines.
  const reach = Math.min(lines.length, at + 2 + keys.split('\n').length + keys.length / 20);
  for (let index = at + 1; index < reach; index += 1) {
    if (promptLine.test(lines[index]!)) break;
    if (lines[index]!.trimEnd().endsWith(tmuxWait)) return index + 1;
  }
  return at + 1;
}

/**
 * The prompt lines of a pane, indexed once so each command is found without rescanning the
 * pane: by the whole command shown, and by the start of a long line (a wrapped command).
 */
export class PaneIndex {
  private readonly exact = new Map<string, number[]>();
  private readonly wrapped = new Map<string, number[]>();
  private readonly shown: (string | undefined)[];

  constructor(lines: readonly string[]) {
    this.shown = lines.map((line) => promptedCommand(line));
    this.shown.forEach((command, index) => {
      if (command === undefined) return;
      push(this.exact, command, index);
      if (command.length >= wrappedMinimum)
        push(this.wrapped, command.slice(0, wrappedMinimum), index);
    });
  }

  /** The first prompt line at or after `from` showing `keys` (its first line), or -1. */
  find(keys: string, from: number): number {
    const needle = withoutTmuxWait(keys.trim().split('\n')[0] ?? '').trim();
    if (!needle) return -1;
    let best = firstAtOrAfter(this.exact.get(needle) ?? [], from);
    const starts = this.wrapped.get(needle.slice(0, wrappedMinimum)) ?? [];
    // Bounded: a pane of one line repeated cannot make a lookup scan it all.
    const end = Math.min(starts.length, lowerBound(starts, from) + 10_000);
    for (let at = lowerBound(starts, from); at < end; at += 1) {
      const index = starts[at]!;
      if (best >= 0 && index >= best) break;
      if (needle.startsWith(this.shown[index]!)) {
        best = index;
        break;
      }
    }
    return best;
  }
}

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

/** The position of the first value ≥ `from` in an ascending list. */
function lowerBound(values: readonly number[], from: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < from) low = middle + 1;
    else high = middle;
  }
  return low;
}

function firstAtOrAfter(values: readonly number[], from: number): number {
  const at = lowerBound(values, from);
  return at < values.length ? values[at]! : -1;
}

/**
 * The final pane cut at each command the agent typed (`commands`, in order), found on a prompt
 * line; with no commands, at every prompt line but the harness's. What precedes the first
 * command is the harness's.
 */
export function splitPane(pane: string, commands: string[]): TerminalStep[] {
  const lines = pane.split('\n');
  const starts: { line: number; keystrokes: string }[] = [];
  if (commands.length > 0) {
    const index = new PaneIndex(lines);
    let from = 0;
    for (const keys of commands) {
      const found = index.find(keys, from);
      starts.push({ line: found, keystrokes: keys });
      if (found >= 0) from = found + 1;
    }
  } else {
    lines.forEach((line, index) => {
      const command = promptedCommand(line);
      if (command && !isHarnessCommand(command)) starts.push({ line: index, keystrokes: command });
    });
  }
  return starts.map((start, index) => {
    if (start.line < 0) {
      return {
        keystrokes: [start.keystrokes],
        output: '(the final pane does not show this command; its output was not recorded)',
      };
    }
    const next = starts.slice(index + 1).find((entry) => entry.line >= 0)?.line ?? lines.length;
    return {
      keystrokes: [start.keystrokes],
      output: lines
        .slice(echoEnd(lines, start.line, start.keystrokes), next)
        .join('\n')
        .trimEnd(),
    };
  });
}
