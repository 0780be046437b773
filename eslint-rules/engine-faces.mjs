// The engine's module rule (docs/ARCHITECTURE.md "Engine modules"): a file in one engine module
// may use another module only through that module's face (its index.ts, or for a module with
// several aggregates one of the faces in its faces/ folder), and the engine never
// imports the processes built on it (cli, server, app) or the renderer. Inside a module, files
// import each other freely. A top-level engine file (errors.ts, events.ts, …) is its own face.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const engineRoot = resolve(import.meta.dirname, '..', 'src', 'main', 'engine');
const above = ['cli', 'server', 'app'].map((name) => resolve(engineRoot, '..', name));
const renderer = resolve(engineRoot, '..', '..', 'renderer');

/** The engine module folders (read once: adding a module means adding a folder). */
const modules = new Set(
  readdirSync(engineRoot).filter((name) => statSync(join(engineRoot, name)).isDirectory()),
);

/** The module a path is in, or null outside the engine or for a top-level engine file. */
function moduleOf(path) {
  const rel = relative(engineRoot, path);
  if (rel.startsWith('..')) return null;
  const head = rel.split(sep)[0];
  return modules.has(head) ? head : null;
}

/** True when `target` (resolved, no extension) names module `name`'s face or one of its faces/. */
function isFace(target, name) {
  const face = join(engineRoot, name);
  return (
    target === face ||
    target === join(face, 'index') ||
    (dirname(target) === join(face, 'faces') && existsSync(`${target}.ts`))
  );
}

const within = (path, dir) => path === dir || path.startsWith(dir + sep);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Engine modules meet only through their faces (index.ts).' },
    messages: {
      deep: "Import '{{module}}' through its face ('{{face}}'), not '{{source}}': add the name to {{module}}/index.ts if it belongs to the module's face.",
      upward:
        'The engine never imports {{what}}: move the shared code down into the engine or src/shared.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (!within(file, engineRoot)) return {};
    const from = moduleOf(file);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(file), source).replace(/\.(ts|tsx|js|mjs)$/, '');
      const upward =
        above.find((dir) => within(target, dir)) ?? (within(target, renderer) && renderer);
      if (upward) {
        context.report({
          node: node.source,
          messageId: 'upward',
          data: { what: relative(resolve(engineRoot, '..', '..'), upward) },
        });
        return;
      }
      const to = moduleOf(target);
      if (to === null || to === from || isFace(target, to)) return;
      if (!existsSync(join(engineRoot, to, 'index.ts'))) return;
      let face = relative(dirname(file), join(engineRoot, to));
      if (!face.startsWith('.')) face = `./${face}`;
      context.report({ node: node.source, messageId: 'deep', data: { module: to, face, source } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
