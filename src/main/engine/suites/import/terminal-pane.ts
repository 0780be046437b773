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

/** Whether a prompt line shows `keys` (its first line; a wrapped line shows its start). */
function showsCommand(line: string, keys: string): boolean {
  const needle = withoutTmuxWait(keys.trim().split('\n')[0] ?? '').trim();
  const shown = promptedCommand(line);
  if (!needle || !shown) return false;
  return shown === needle || (shown.length >= wrappedMinimum && needle.startsWith(shown));
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

/** The index of the first prompt line at or after `from` showing `keys`, or -1. */
export function findCommand(lines: readonly string[], keys: string, from: number): number {
  for (let index = from; index < lines.length; index += 1) {
    if (showsCommand(lines[index]!, keys)) return index;
  }
  return -1;
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
    let from = 0;
    for (const keys of commands) {
      const found = findCommand(lines, keys, from);
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
