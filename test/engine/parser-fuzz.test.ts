/**
 * A bounded, seeded fuzz of the four parsers a stranger's file reaches ("Done
 * when"): study specs, suites, results files and bundles. Each gets a few hundred mutations of
 * an honest file, text-level and structure-level. Every outcome must be a success or a typed
 * EngineError (no crash, no stray TypeError or SqliteError), and a rejected input must leave
 * the workspace database exactly as it was (no partial write).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { EngineError } from '../../src/main/engine/errors';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { openBundle } from '../../src/main/engine/export/bundle-open';
import { mulberry32, type Random } from '../../src/main/engine/random';
import { importResults } from '../../src/main/engine/reports/import';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { parseSuite } from '../../src/main/engine/suites/load';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

const MUTATIONS = 300;
const root = join(__dirname, '..', '..');
const tokens = [
  '"',
  "'",
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '\n',
  '\\',
  '&a ',
  '*a',
  '..',
  '\u0000',
  '-1',
  '1e309',
  'null',
  'true',
  '""',
  '/etc/passwd',
  '=cmd|',
  'ATTACH',
  '\ufeff',
  '🙂',
];

/** One random mutation of `text`: flip, cut, duplicate, insert a token, or swap lines. */
function mutateText(text: string, random: Random): string {
  const at = Math.floor(random() * text.length);
  const span = 1 + Math.floor(random() * 40);
  switch (Math.floor(random() * 5)) {
    case 0:
      return (
        text.slice(0, at) + String.fromCharCode(Math.floor(random() * 128)) + text.slice(at + 1)
      );
    case 1:
      return text.slice(0, at) + text.slice(at + span);
    case 2:
      return text.slice(0, at) + text.slice(at, at + span).repeat(3) + text.slice(at);
    case 3:
      return text.slice(0, at) + tokens[Math.floor(random() * tokens.length)]! + text.slice(at);
    default: {
      const lines = text.split('\n');
      const a = Math.floor(random() * lines.length);
      const b = Math.floor(random() * lines.length);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return lines.join('\n');
    }
  }
}

const oddValues: unknown[] = [
  null,
  -1,
  0,
  1e308,
  '',
  'x'.repeat(5000),
  [],
  {},
  [[[]]],
  true,
  '../../x',
  'C:\\x',
  { a: { b: { c: null } } },
  '=HYPERLINK("x")',
  Number.MAX_SAFE_INTEGER,
];

/** `value` with one random node (object field or array entry) replaced, removed or added. */
function mutateValue(value: unknown, random: Random): unknown {
  const copy = structuredClone(value);
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        nodes.push({ parent: node, key: index });
        walk(child);
      });
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        nodes.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  walk(copy);
  const target = nodes[Math.floor(random() * nodes.length)];
  if (!target) return copy;
  const odd = oddValues[Math.floor(random() * oddValues.length)];
  const choice = random();
  if (choice < 0.6) (target.parent as Record<string | number, unknown>)[target.key] = odd;
  else if (choice < 0.8 && Array.isArray(target.parent))
    target.parent.splice(Number(target.key), 1);
  else if (choice < 0.8) delete (target.parent as Record<string, unknown>)[target.key as string];
  else
    (target.parent as Record<string | number, unknown>)[
      Array.isArray(target.parent) ? target.parent.length : `extra${Math.floor(random() * 9)}`
    ] = odd;
  return copy;
}

/** A mutation of JSON text: half the time of its text, half of its structure. */
function mutateJson(text: string, random: Random): string {
  return random() < 0.5
    ? mutateText(text, random)
    : JSON.stringify(mutateValue(JSON.parse(text), random));
}

describe('parser fuzz: clean errors only, nothing half-written', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir() };
  let source: Engine;
  let engine: Engine;
  let bundleJson = '';

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    source = createEngine({ path: dirs.a.path, source: 'flag' });
    engine = createEngine({ path: dirs.b.path, source: 'flag' });
    const studyId = await runStudy(engineStore(source));
    const file = join(dirs.a.path, 'honest.json.gz');
    exportBundle(engineStore(source), studyId, file);
    bundleJson = gunzipSync(readFileSync(file)).toString('utf8');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    source.close();
    engine.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  /** A digest of every row of every table. */
  function snapshot(): string {
    const hash = createHash('sha256');
    const tables = engineStore(engine)
      .db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    for (const table of tables)
      hash.update(
        JSON.stringify(engineStore(engine).db.prepare(`SELECT * FROM "${table}"`).raw().all()),
      );
    return hash.digest('hex');
  }

  const totalChanges = () => engineStore(engine).db.prepare('SELECT total_changes()').pluck().get();

  /**
   * Runs `attempt` on `count` mutations; returns how many were accepted. The database is
   * compared with its last good state after every rejection that wrote anything (SQLite's
   * change counter moved), so a rolled-back write passes and a half-committed one fails.
   */
  function fuzz(
    seed: number,
    mutate: (random: Random) => string,
    attempt: (input: string) => void,
    options: { count?: number; cleanUp?: () => void } = {},
  ) {
    const random = mulberry32(seed);
    const crashes: string[] = [];
    const partial: string[] = [];
    let accepted = 0;
    let baseline = snapshot();
    for (let index = 0; index < (options.count ?? MUTATIONS); index += 1) {
      const input = mutate(random);
      const changes = totalChanges();
      try {
        attempt(input);
        accepted += 1;
        options.cleanUp?.();
        baseline = snapshot();
      } catch (error) {
        if (!(error instanceof EngineError))
          crashes.push(
            `#${index}: ${(error as Error).name}: ${(error as Error).message.slice(0, 200)}`,
          );
        if (totalChanges() !== changes && snapshot() !== baseline) partial.push(`#${index}`);
      }
    }
    expect(crashes).toEqual([]);
    expect(partial).toEqual([]);
    return accepted;
  }

  it('study specs', () => {
    const spec = readFileSync(join(root, 'resources', 'studies', 'demo.json'), 'utf8');
    const accepted = fuzz(
      1,
      (random) => mutateJson(spec, random),
      (text) => void parseStudySpec(text, 'spec.yaml'),
    );
    expect(accepted).toBeLessThan(MUTATIONS);
  });

  it('suites (parsed, then stored)', () => {
    const suite = readFileSync(join(root, 'test', 'fixtures', 'mini-suite.json'), 'utf8');
    fuzz(
      2,
      (random) => mutateJson(suite, random),
      (text) => saveSuite(engineStore(engine), parseSuite(text, 'suite.json'), 'imported'),
    );
  });

  it('results files', () => {
    const csv = readFileSync(join(root, 'test', 'fixtures', 'results', 'mini-results.csv'), 'utf8');
    const jsonl = readFileSync(
      join(root, 'test', 'fixtures', 'results', 'mini-results.jsonl'),
      'utf8',
    );
    fuzz(
      3,
      (random) =>
        random() < 0.5 ? `csv\0${mutateText(csv, random)}` : `jsonl\0${mutateText(jsonl, random)}`,
      (input) => {
        const [kind, content] = input.split('\0', 2) as [string, string];
        importResults(engineStore(engine), { fileName: `r.${kind}`, content });
      },
      {
        // Accepted imports are removed again: the workspace stays small and each check fast.
        cleanUp: () =>
          engineStore(engine).db.prepare("DELETE FROM studies WHERE origin = 'imported'").run(),
      },
    );
  });

  it('bundles', () => {
    const file = join(dirs.b.path, 'fuzzed.json.gz');
    fuzz(
      4,
      (random) => mutateJson(bundleJson, random),
      (text) => {
        writeFileSync(file, gzipSync(text, { level: 1 }));
        openBundle(engineStore(engine), file, { replace: true });
      },
    );
  });
});
