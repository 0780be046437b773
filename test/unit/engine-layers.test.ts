import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The engine's modules form layers (docs/ARCHITECTURE.md "Engine modules"): no module uses
// another that, through its own imports, uses it back. Type-only imports are left out (they
// are erased, and `environments` implements the judge's JudgeEnvironment interface).
const engine = join(__dirname, '..', '..', 'src', 'main', 'engine');
const statement = /^(?:import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*'(\.[^']*)';/gm;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The module a path is in: its top folder under the engine, or a top-level file's name. */
function moduleOf(path: string): string {
  const head = relative(engine, path).split(sep)[0] ?? '';
  return head.replace(/\.ts$/, '');
}

function valueEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of files(engine)) {
    for (const match of readFileSync(file, 'utf8').matchAll(statement)) {
      const names = (match[2] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const typeOnly = Boolean(match[1]) || names.every((name) => name.startsWith('type '));
      const target = resolve(dirname(file), match[3] ?? '');
      if (typeOnly || !target.startsWith(engine + sep)) continue;
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** One cycle of the graph as `a -> b -> a`, or null. */
function findCycle(edges: Map<string, Set<string>>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node].join(' -> ');
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('engine layers', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(edges)).toBe('a -> b -> c -> a');
  });

  it('no engine module uses another that uses it back', () => {
    const edges = valueEdges();
    expect(edges.get('runner')?.has('store')).toBe(true); // the graph is really read
    expect(findCycle(edges)).toBeNull();
  });
});
