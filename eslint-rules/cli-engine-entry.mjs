// The command line's rule (docs/ARCHITECTURE.md "The CLI"): a file in src/main/cli
// reaches the engine only through LabApi — the api face (the in-process client) — and the
// engine entries (engine.ts: opening a workspace, the engine's errors and version; machine.ts:
// what only a process on this machine can do, for the local commands). Type-only imports are
// held to the same rule: a type from the store (Store, a row) in a CLI signature is how a
// table handle leaks up. Files that still do work of their own against engine internals can
// be listed in the rule's `pending` option (eslint.config.mjs), so what is left to move stays
// visible and nothing new joins it.
import { dirname, relative, resolve, sep } from 'node:path';

const engineRoot = resolve(import.meta.dirname, '..', 'src', 'main', 'engine');
const cliRoot = resolve(engineRoot, '..', 'cli');
const allowed = [
  resolve(engineRoot, 'engine'),
  // What only a process on this machine can do (Docker images, orphans, the built-in suite).
  resolve(engineRoot, 'machine'),
  resolve(engineRoot, 'api'),
  resolve(engineRoot, 'api', 'index'),
];

const within = (path, dir) => path === dir || path.startsWith(dir + sep);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'The CLI uses the engine only through LabApi and the engine entry.' },
    messages: {
      internal:
        "The CLI reaches the engine through LabApi: add a LabApi method (src/shared) and its handler (engine/api), or a local command's entry to engine/machine.ts, instead of importing '{{source}}'.",
    },
    schema: [
      {
        type: 'object',
        properties: { pending: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.filename;
    if (!within(file, cliRoot)) return {};
    const pending = new Set(
      (context.options[0]?.pending ?? []).map((name) => resolve(cliRoot, name)),
    );
    if (pending.has(file)) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(file), source).replace(/\.(ts|tsx|js|mjs)$/, '');
      if (!within(target, engineRoot) || allowed.includes(target)) return;
      context.report({
        node: node.source,
        messageId: 'internal',
        data: { source: relative(dirname(file), target) || source },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
