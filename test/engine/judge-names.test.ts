/**
 * A judge's name may be any model id, and every place that takes one (the spec validator,
 * `import-results` on a real SQLite workspace, the Builder's suggestion) follows the one rule of
 * shared/judge-names.ts: what one accepts the others accept, what one refuses the others refuse.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importResults, ResultsImportError } from '../../src/main/engine/reports/import';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { suggestedJudgeId } from '../../src/renderer/features/builder/builder-draft';
import { judgeKey, judgeNameProblem } from '../../src/shared/judge-names';
import { makeTempDir } from '../helpers/temp-dir';

const modelIds = [
  'anthropic/claude-3-7-sonnet-20250219-thinking-16k',
  'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8',
  'meta-llama/Llama-3.3-70B-Instruct:free',
  'gpt-oss-120b@vllm (bf16)',
];

const refused = [
  { name: '', problem: 'a judge needs a name' },
  { name: ' sonnet', problem: 'cannot start or end with a space' },
  { name: 'sonnet\tv2', problem: 'control character' },
  { name: 'x'.repeat(201), problem: 'at most 200 characters' },
];

function specWithJudge(id: string): string {
  return JSON.stringify({
    name: 'names',
    suite: 'cuelab-mini',
    judges: [{ id, provider: 'anthropic', model: 'claude-3-7-sonnet-20250219' }],
  });
}

function specProblem(id: string): string | null {
  try {
    parseStudySpec(specWithJudge(id), 'spec.json');
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function resultsWithJudge(judge: string): string {
  const quoted = `"${judge.replace(/"/g, '""')}"`;
  return [
    'item_id,dataset,judge,condition,cue_direction,rep,verdict,gold',
    `i1,d,${quoted},uncued,,0,pass,pass`,
    `i1,d,${quoted},strong@system,severity,0,fail,pass`,
  ].join('\n');
}

describe('judge names that are model ids', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;

  beforeEach(() => {
    dir = makeTempDir();
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  it.each(modelIds)('the spec, import-results and the Builder all take %s as it is', (id) => {
    expect(judgeNameProblem(id)).toBeNull();
    expect(specProblem(id)).toBeNull();
    const summary = importResults(store, { fileName: 'r.csv', content: resultsWithJudge(id) });
    const stored = store.db
      .prepare('SELECT DISTINCT judge FROM imported_reps WHERE study_id = ?')
      .all(summary.studyId) as { judge: string }[];
    expect(stored.map((row) => row.judge)).toEqual([id]);
    expect(suggestedJudgeId({ provider: 'openai-compatible', model: id, persona: '' })).toBe(id);
  });

  it.each(refused)('the spec and import-results both refuse "$name"', ({ name, problem }) => {
    expect(judgeNameProblem(name)).toContain(problem);
    expect(specProblem(name)).toContain(problem);
    let rejection: unknown;
    try {
      importResults(store, { fileName: 'r.csv', content: resultsWithJudge(name) });
    } catch (error) {
      rejection = error;
    }
    // A results cell is trimmed first (CSV habit), so a padded name imports as the bare one.
    if (name === ' sonnet') return;
    expect(rejection).toBeInstanceOf(ResultsImportError);
    expect((rejection as ResultsImportError).problems.join('\n')).toMatch(
      name === '' ? /judge: required/ : new RegExp(`judge: .*${problem}`),
    );
  });

  it('keeps a safe id as its own key and gives a model id a slug plus a hash', () => {
    expect(judgeKey('sonnet')).toBe('sonnet');
    expect(judgeKey('gpt-5.1_mini')).toBe('gpt-5.1_mini');
    const key = judgeKey('anthropic/claude-3-7-sonnet-20250219-thinking-16k');
    expect(key).toMatch(/^anthropic-claude-3-7-sonnet-20250219-thinking-16k-[0-9a-f]{8}$/);
    // Two names that slug alike keep apart.
    expect(judgeKey('Qwen/Qwen3')).not.toBe(judgeKey('qwen/qwen3'));
    for (const id of modelIds) expect(judgeKey(id)).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
  });
});
