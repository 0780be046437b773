/**
 * Terminal-Bench 1 (`tb run` output): `<task>/<trial>/results.json`, `commands.txt` (the
 * keystrokes sent to the agent's tmux session), `panes/*.txt`, `sessions/*`. The trajectory is
 * the instruction, the keystrokes of the agent phase and the terminal as the agent left it
 * (`panes/post-agent.txt`). Everything after the agent phase belongs to the graders: the
 * test keystrokes, `post-test.txt`, `tests.log`, `is_resolved`, `parser_results`,
 * `failure_mode` never reach the item except `is_resolved` as its gold label.
 */
import { dirname } from 'node:path';
import { z } from 'zod';
import { parseJson, parseWith } from './files';
import { harborTaskEnvironment, terminalBenchTaskEnvironment } from './task-layouts';
import { isHarnessCommand, isInstalledAgentSetup } from './terminal-pane';
import { stepMessages, terminalSteps, type AgentPhase } from './terminal-steps';
import { ImportProblem, type ImportContext, type Importer } from './types';

const resultsSchema = z.looseObject({
  trial_name: z.string().min(1),
  task_id: z.string().min(1),
  instruction: z.string().min(1),
  is_resolved: z.boolean().nullable().optional(),
  total_input_tokens: z.number().nullable().optional(),
  total_output_tokens: z.number().nullable().optional(),
});

// The first keystroke of the test phase: it and all that follows are graders' business.
const testPhase = /asciinema rec --stdin \S*tests\.cast|\/tests\/run-tests\.sh|run-tests\.sh/;

/** Reads Terminal-Bench 1 trials. */
export const terminalBenchImporter: Importer = {
  format: 'terminal-bench',
  units: (context) =>
    context.files.filter(
      (path) =>
        path.split('/').pop() === 'results.json' &&
        (context.has(sibling(path, 'commands.txt')) ||
          context.has(sibling(path, 'panes/post-agent.txt'))),
    ),
  read(unit, context) {
    const file = context.read(unit);
    const results = parseWith(resultsSchema, parseJson(file), unit);
    const phase = context.has(sibling(unit, 'commands.txt'))
      ? agentKeystrokes(context, sibling(unit, 'commands.txt'))
      : { commands: [], installed: false };
    const panePath = sibling(unit, 'panes/post-agent.txt');
    const pane = context.has(panePath) ? context.read(panePath).text : '';
    const { steps, source, sourceActions } = terminalSteps(context, dirname(unit), phase, pane);
    const trajectory =
      steps.length > 0
        ? stepMessages(results.instruction, steps)
        : [
            { role: 'user' as const, content: results.instruction },
            {
              role: 'user' as const,
              content: `[the terminal after the agent finished (no command of the agent was recorded)]\n${pane}`,
            },
          ];
    const flags = neverRan(pane, results);
    // An empty final pane with nothing else to read: the judge would see no terminal at all.
    const emptyPane = !pane.trim() && source === 'pane';
    if (emptyPane) {
      flags.push(
        `empty-pane: ${panePath} is empty and no agent log or recording gives the terminal`,
      );
    }
    const own = context.task(results.task_id, 'task.yaml', unit);
    // A Terminal-Bench 2 task folder of that name (task.toml) serves as well, read as Harbor's.
    const other = own ? undefined : context.task(results.task_id, 'task.toml', unit);
    const found = own
      ? terminalBenchTaskEnvironment(own)
      : other
        ? harborTaskEnvironment(other)
        : undefined;
    const notes = [
      ...(found
        ? []
        : other
          ? [
              `trajectory only: the task folder ${other.label} (Terminal-Bench 2 layout) has ` +
                'neither environment/Dockerfile nor [environment] docker_image',
            ]
          : [
              `trajectory only: give the task folder (--tasks) for ${results.task_id}'s Dockerfile`,
            ]),
      ...(found && other
        ? [`environment from ${other.label}, a Terminal-Bench 2 task folder (task.toml)`]
        : []),
      ...(!pane.trim() && !emptyPane ? [`${panePath} is empty`] : []),
    ];
    return {
      item: {
        id: results.trial_name,
        dataset: 'terminal-bench',
        substrate: 'terminal',
        task: results.instruction,
        trajectory,
        // The agent ran as root; the judge runs as the default user unless the user's container
        // cap allows root (CUELAB_CONTAINER_ALLOW_ROOT=1): a suite cannot raise it.
        environment: found?.environment ?? { files: {}, shell: false },
        ...(typeof results.is_resolved === 'boolean'
          ? { gold: results.is_resolved ? ('pass' as const) : ('fail' as const) }
          : {}),
        provenance: {
          source: unit,
          format: 'terminal-bench',
          sha256: file.sha256,
          instance: results.task_id,
        },
        ...(notes.length ? { note: notes.join('; ') } : {}),
      },
      flags,
      stepCheck: {
        source: sourceActions,
        stored: storedActions(steps, source),
        what: source === 'agent-transcript' ? 'numbered agent steps' : 'agent commands',
      },
      ...(found?.storageMb ? { storageMb: found.storageMb } : {}),
    };
  },
};

function sibling(path: string, name: string): string {
  const folder = dirname(path);
  return folder === '.' ? name : `${folder}/${name}`;
}

/**
 * How many of the source's actions the steps kept: commands typed (an episode sends several),
 * numbered steps of an installed agent's log; a step the pane does not show is not kept.
 */
function storedActions(steps: ReturnType<typeof terminalSteps>['steps'], source: string): number {
  const shown = steps.filter((step) => !step.output.startsWith('(the final pane does not show'));
  if (source === 'agent-transcript') return shown.filter((step) => step.keystrokes.length).length;
  return shown.reduce((total, step) => total + step.keystrokes.length, 0);
}

/**
 * The agent phase of commands.txt (each line the `repr` of what TmuxSession.send_keys got: a
 * list of keys, or one string of keystrokes as Terminus sends them): harness lines dropped, the
 * test phase cut off, and whether an installed agent was set up.
 */
function agentKeystrokes(context: ImportContext, path: string): AgentPhase {
  const out: string[] = [];
  let installed = false;
  for (const [index, line] of context.read(path).text.split('\n').entries()) {
    if (!line.trim()) continue;
    let keys: string[];
    try {
      keys = pythonStrings(line);
    } catch (error) {
      throw new ImportProblem(`${path}:${index + 1}`, (error as Error).message);
    }
    const text = keys.filter((key) => key !== 'Enter').join('');
    if (testPhase.test(text)) break;
    if (isInstalledAgentSetup(text)) installed = true;
    if (!isHarnessCommand(text)) out.push(text);
  }
  return { commands: out, installed };
}

/**
 * A run whose agent never started: the terminal says a command was not found (the install
 * failed) and the model was never called. Kept out unless the user asks.
 */
function neverRan(pane: string, results: z.output<typeof resultsSchema>): string[] {
  // The last such line is the nearest to the agent's launch: usually the launcher itself.
  const missing = pane
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /: command not found$|: No such file or directory$/.test(line))
    .pop();
  const noTokens = !results.total_input_tokens && !results.total_output_tokens;
  if (missing && noTokens) {
    return [`agent-never-ran: the terminal shows "${missing}" and the model was never called`];
  }
  return [];
}

/**
 * The strings of one Python `repr` line, escapes decoded: a list (`['ls -la', 'Enter']`) or one
 * string (`'ls -la\\n'`, as Terminus' keystrokes are logged).
 */
export function pythonStrings(line: string): string[] {
  const out: string[] = [];
  const start = line.trimStart()[0];
  const single = start === "'" || start === '"';
  let index = single ? line.indexOf(start) : line.indexOf('[');
  if (index < 0) throw new Error("expected a list of keystrokes like ['ls', 'Enter']");
  if (!single) index += 1;
  while (index < line.length) {
    const char = line[index]!;
    if (char === "'" || char === '"') {
      let value = '';
      index += 1;
      while (index < line.length && line[index] !== char) {
        if (line[index] === '\\') {
          const next = line[index + 1] ?? '';
          const simple: Record<string, string> = {
            n: '\n',
            t: '\t',
            r: '\r',
            '\\': '\\',
            "'": "'",
            '"': '"',
          };
          if (next in simple) {
            value += simple[next];
            index += 2;
          } else if (next === 'x' || next === 'u' || next === 'U') {
            const width = next === 'x' ? 2 : next === 'u' ? 4 : 8;
            const code = parseInt(line.slice(index + 2, index + 2 + width), 16);
            value += Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '?';
            index += 2 + width;
          } else {
            value += '\\';
            index += 1;
          }
        } else {
          value += line[index];
          index += 1;
        }
      }
      if (index >= line.length) throw new Error('a keystroke string is not closed');
      out.push(value);
      if (single) return out;
    } else if (char === ']') {
      return out;
    }
    index += 1;
  }
  throw new Error('the keystroke list is not closed');
}
