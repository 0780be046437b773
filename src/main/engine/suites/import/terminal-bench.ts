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
import type { AgentMessage } from '../../../../shared/trajectory';
import { parseJson, parseWith } from './files';
import { composeResources, resourcesField } from './resources';
import { ImportProblem, type ImportContext, type Importer } from './types';

const resultsSchema = z.looseObject({
  trial_name: z.string().min(1),
  task_id: z.string().min(1),
  instruction: z.string().min(1),
  is_resolved: z.boolean().nullable().optional(),
  total_input_tokens: z.number().nullable().optional(),
  total_output_tokens: z.number().nullable().optional(),
});

// Keystrokes the harness sends around the agent, not the agent's own.
const harnessCommand = /^(asciinema rec --stdin \S*agent\.cast|clear|C-d|tmux wait -S done)$/;
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
    const commands = context.has(sibling(unit, 'commands.txt'))
      ? agentKeystrokes(context, sibling(unit, 'commands.txt'))
      : [];
    const panePath = sibling(unit, 'panes/post-agent.txt');
    const pane = context.has(panePath) ? context.read(panePath).text : '';
    const trajectory = buildTrajectory(results.instruction, commands, pane);
    const flags = neverRan(pane, results);
    const task = context.task(results.task_id, 'task.yaml', unit);
    const dockerfile = task?.read('Dockerfile');
    // Limits the task's compose file gives the agent's container (e.g. `mem_limit: 4g`).
    const resources = resourcesField(composeResources(task?.read('docker-compose.yaml')));
    return {
      item: {
        id: results.trial_name,
        dataset: 'terminal-bench',
        substrate: 'terminal',
        task: results.instruction,
        trajectory,
        environment: dockerfile
          ? // The agent ran as root; the judge runs as the default user unless the user's
            // container cap allows root (CUELAB_CONTAINER_ALLOW_ROOT=1): a suite cannot raise it.
            { dockerfile, workdir: '/app', shell: true, ...resources }
          : { files: {}, shell: false },
        ...(typeof results.is_resolved === 'boolean'
          ? { gold: results.is_resolved ? ('pass' as const) : ('fail' as const) }
          : {}),
        provenance: {
          source: unit,
          format: 'terminal-bench',
          sha256: file.sha256,
          instance: results.task_id,
        },
        ...(dockerfile
          ? {}
          : {
              note: `trajectory only: give the task folder (--tasks) for ${results.task_id}'s Dockerfile`,
            }),
      },
      flags,
    };
  },
};

function sibling(path: string, name: string): string {
  const folder = dirname(path);
  return folder === '.' ? name : `${folder}/${name}`;
}

/** The agent-phase keystrokes of commands.txt: harness lines dropped, the test phase cut off. */
function agentKeystrokes(context: ImportContext, path: string): string[] {
  const out: string[] = [];
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
    if (!harnessCommand.test(text.trim())) out.push(text);
  }
  return out;
}

function buildTrajectory(instruction: string, commands: string[], pane: string): AgentMessage[] {
  const messages: AgentMessage[] = [{ role: 'user', content: instruction }];
  commands.forEach((keys, index) => {
    const id = `keys-${index + 1}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: 'terminal', arguments: JSON.stringify({ keys }) },
        },
      ],
    });
    // The harness records one screen at the end, not one per command: it goes with the last.
    messages.push({
      role: 'tool',
      tool_call_id: id,
      name: 'terminal',
      content:
        index === commands.length - 1 ? pane : '(the harness recorded no output for this step)',
    });
  });
  if (commands.length === 0) {
    messages.push({
      role: 'user',
      content: `[the terminal after the agent finished (no keystrokes of the agent were recorded)]\n${pane}`,
    });
  }
  return messages;
}

/**
 * A run whose agent never started: the terminal says a command was not found (the install
 * failed) and the model was never called. Kept out unless the user asks (issue 11).
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

/** The strings of one Python list literal line (`['ls -la', 'Enter']`), escapes decoded. */
export function pythonStrings(line: string): string[] {
  const out: string[] = [];
  let index = line.indexOf('[');
  if (index < 0) throw new Error("expected a list of keystrokes like ['ls', 'Enter']");
  index += 1;
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
          } else if (next === 'x' || next === 'u') {
            const width = next === 'x' ? 2 : 4;
            value += String.fromCharCode(parseInt(line.slice(index + 2, index + 2 + width), 16));
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
    } else if (char === ']') {
      return out;
    }
    index += 1;
  }
  throw new Error('the keystroke list is not closed');
}
