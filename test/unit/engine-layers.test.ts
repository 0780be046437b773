import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The engine's modules form layers (docs/ARCHITECTURE.md "Engine modules"): every import,
// type-only ones included, goes down the documented order or stays on its own floor, and no
// module uses another that, through its own imports, uses it back. Types count because a type
// knot ties two modules as surely as a call: the judge's transcript read by the store is why
// the store could not move without the judge.
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

/**
 * The floors, from the bottom. A module may import one on its own floor or below. The
 * top-level files (errors.ts, random.ts, …) share the bottom floor with paper/. contract/ sits
 * just above providers/ (a transcript holds the provider's chat messages and tool specs) and
 * below everything that shares its shapes; substrates/ use contract/ and are used by
 * environments/ and judge/.
 */
const floors: readonly (readonly string[])[] = [
  [
    'paper',
    'confined-read',
    'errors',
    'events',
    'input-limits',
    'mechanism-labels',
    'random',
    'redaction',
    'secrets',
    'version',
    'workspace',
  ],
  ['providers'],
  ['contract'],
  ['substrates'],
  ['environments'],
  ['store'],
  ['judge'],
  ['analysis'],
  ['simulation'],
  ['metajudge'],
  ['reports'],
  ['export', 'suites', 'runner', 'workers'],
  // import-folders.ts: the folders a served lab may read (beside the suites' own resources).
  ['api', 'import-folders'],
  ['engine', 'engine-store', 'machine'],
];

/**
 * Type-only imports that still point up, each waiting for its types to move into contract/
 * (the judge's environment port, transcript and verdict; the provider's settings type). A new
 * upward import, type or value, fails; an entry here that no longer occurs can simply go.
 */
const upwardTypesPending: readonly string[] = ['redaction -> providers'];

function floorOf(module: string): number {
  return floors.findIndex((floor) => floor.includes(module));
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of files(engine)) {
    for (const match of readFileSync(file, 'utf8').matchAll(statement)) {
      const names = (match[2] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const typeOnly = Boolean(match[1]) || names.every((name) => name.startsWith('type '));
      const target = resolve(dirname(file), match[3] ?? '');
      if (!target.startsWith(engine + sep)) continue;
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (from !== to) edges.push({ from, to, typeOnly });
    }
  }
  return edges;
}

function graphOf(edges: readonly Edge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) graph.set(from, (graph.get(from) ?? new Set()).add(to));
  return graph;
}

/** Every edge that climbs the documented order, as `from -> to`, minus the pending ones. */
function upward(edges: readonly Edge[], pending: readonly string[]): string[] {
  const found = edges
    .filter((edge) => floorOf(edge.to) > floorOf(edge.from))
    .filter((edge) => !(edge.typeOnly && pending.includes(`${edge.from} -> ${edge.to}`)))
    .map((edge) => `${edge.from} -> ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
  return [...new Set(found)].sort();
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

  it('finds an upward import, a type-only one too, unless it is pending (the check itself)', () => {
    const edges: Edge[] = [
      { from: 'store', to: 'judge', typeOnly: true },
      { from: 'paper', to: 'analysis', typeOnly: false },
      { from: 'environments', to: 'judge', typeOnly: true },
      { from: 'runner', to: 'store', typeOnly: false },
    ];
    expect(upward(edges, ['environments -> judge'])).toEqual([
      'paper -> analysis',
      'store -> judge (type)',
    ]);
  });

  it('every engine module and top-level file has a floor', () => {
    const modules = new Set(files(engine).map(moduleOf));
    expect([...modules].filter((module) => floorOf(module) < 0)).toEqual([]);
  });

  it('every import, type-only ones included, goes down the documented order', () => {
    const edges = importEdges();
    expect(edges.some((edge) => edge.from === 'runner' && edge.to === 'store')).toBe(true);
    expect(upward(edges, upwardTypesPending)).toEqual([]);
  });

  it('no engine module uses another that uses it back, types included', () => {
    const edges = importEdges().filter(
      (edge) => !(edge.typeOnly && upwardTypesPending.includes(`${edge.from} -> ${edge.to}`)),
    );
    expect(findCycle(graphOf(edges))).toBeNull();
  });
});
