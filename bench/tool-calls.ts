/**
 * Generated judge tool calls for the paper-scale workspace: a judge's usual mix (shell, then
 * reading files, listing folders and re-reading the trajectory), a few errors, and outputs
 * drawn from a fixed pool with log-uniform sizes between 30 bytes and 2 KB (mean about 470 B).
 */
import type Database from 'better-sqlite3';
import type { Random } from '../src/main/engine/random';

/** Writes one rep's tool calls; returns how many rows it wrote. */
export interface ToolCallWriter {
  write(repId: string, repIndex: number, calls: number, turns: number): number;
}

const tools: readonly { name: string; weight: number; inputs: string[] }[] = [
  {
    name: 'shell',
    weight: 0.5,
    inputs: [
      'ls -la',
      'cat README.md',
      'git diff --stat',
      'python3 -m pytest -q tests/test_parser.py',
      'grep -rn "TODO" src | head -20',
      'wc -l data/*.csv',
      'sqlite3 shop.sqlite "select count(*) from orders"',
      'find . -name "*.log"',
    ].map((command) => JSON.stringify({ command })),
  },
  {
    name: 'read_file',
    weight: 0.25,
    inputs: [
      'src/parser.py',
      'tests/test_parser.py',
      'README.md',
      'data/report.csv',
      'setup.cfg',
    ].map((path) => JSON.stringify({ path })),
  },
  {
    name: 'list_dir',
    weight: 0.15,
    inputs: ['.', 'src', 'tests', 'logs', 'data'].map((path) => JSON.stringify({ path })),
  },
  {
    name: 'read_trajectory',
    weight: 0.1,
    inputs: [1, 40, 80, 120].map((start) =>
      JSON.stringify({ start_line: start, end_line: start + 39 }),
    ),
  },
];

function outputPool(random: Random, size: number): string[] {
  const line = (index: number) =>
    `${String(index).padStart(4, ' ')}  def handle_${index}(self, rows): return [r for r in rows if r.ok]\n`;
  return Array.from({ length: size }, () => {
    const bytes = Math.round(30 * Math.exp(random() * Math.log(2000 / 30)));
    let text = 'exit code: 0\nstdout:\n';
    for (let index = 1; text.length < bytes; index += 1) text += line(index);
    return text.slice(0, bytes);
  });
}

/** A writer over the prepared `judge_tool_calls` insert. */
export function toolCallRows(statement: Database.Statement, random: Random): ToolCallWriter {
  const outputs = outputPool(random, 97);
  const pick = (): (typeof tools)[number] => {
    let roll = random();
    for (const tool of tools) {
      roll -= tool.weight;
      if (roll < 0) return tool;
    }
    return tools[0] as (typeof tools)[number];
  };
  return {
    write(repId, repIndex, calls, turns) {
      for (let seq = 0; seq < calls; seq += 1) {
        const tool = pick();
        const isError = random() < 0.03;
        statement.run(
          repId,
          seq,
          Math.min(turns - 1, Math.floor((seq * turns) / calls)),
          `toolu_${repIndex.toString(36)}_${seq}`,
          tool.name,
          tool.inputs[Math.floor(random() * tool.inputs.length)] ?? '{}',
          isError
            ? 'exit code: 1\nstderr:\nNo such file or directory'
            : (outputs[Math.floor(random() * outputs.length)] ?? ''),
          isError ? 1 : 0,
          40 + Math.floor(random() * 360),
          seq + 1,
          seq + 1 === 40 ? 1 : 0,
        );
      }
      return calls;
    },
  };
}
