/**
 * The results workbench's engine side on a real workspace: a synthetic study run by the real
 * runner (three uncued reps, three cued reps that all flip), queried through the LabApi
 * dispatcher (request schemas included) by every filter, search, sort and page, and any two
 * reps loaded side by side. Mechanisms are the diff classifier's and the synthetic truth.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { importResultsFile } from '../../src/main/engine/reports';
import type { LabRequest, LabResponse } from '../../src/shared/lab-api';
import { runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('queryReps and loadRepPair', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let studyId: string;

  beforeAll(async () => {
    engine = createEngine({ path: dir.path, source: 'flag' });
    studyId = await runStudy(engineStore(engine));
    // Mechanism labels come from classifying the flips (the window's Classify button).
    const classified = await dispatchLabCall(engine.handlers, 'classifyStudy', { studyId });
    expect(classified.ok).toBe(true);
  });
  afterAll(() => {
    engine.close();
    dir.remove();
  });

  async function call<M extends 'queryReps' | 'loadRepPair'>(method: M, request: LabRequest<M>) {
    const result = await dispatchLabCall(engine.handlers, method, request);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value as LabResponse<M>;
  }
  const query = (filters: Omit<LabRequest<'queryReps'>, 'studyId'> = {}) =>
    call('queryReps', { studyId, ...filters });

  it('lists every rep with the filters it can take, flips and mechanisms marked', async () => {
    const page = await query();
    expect(page.rows).toHaveLength(6);
    expect(page.hasMore).toBe(false);
    expect(page.simulated).toBe(true);
    expect(page.facets.judges).toEqual(['deferring']);
    expect(page.facets.datasets).toEqual(['bundle-test']);
    expect(page.facets.conditions).toContain('uncued');
    const flipped = page.rows.filter((row) => row.flip === 'harmful');
    expect(flipped).toHaveLength(3);
    expect(flipped.every((row) => row.direction === 'severity' && row.mechanism !== null)).toBe(
      true,
    );
    expect(page.facets.mechanisms.length).toBeGreaterThan(0);
  });

  it('filters by direction, verdict, flipped and mechanism', async () => {
    const uncued = await query({ direction: 'uncued' });
    expect(uncued.rows.map((row) => row.direction)).toEqual(['', '', '']);
    expect((await query({ verdict: 'fail' })).rows.every((row) => row.verdict === 'fail')).toBe(
      true,
    );
    expect((await query({ verdict: 'none' })).rows).toEqual([]);
    expect((await query({ flipped: 'harmful' })).rows).toHaveLength(3);
    expect((await query({ flipped: 'helpful' })).rows).toEqual([]);
    const notFlipped = await query({ flipped: 'no' });
    expect(notFlipped.rows.map((row) => row.flip)).toEqual([null, null, null]);
    const { facets } = await query();
    const mechanism = facets.mechanisms[0] as string;
    const withMechanism = await query({ mechanism });
    expect(withMechanism.rows.length).toBeGreaterThan(0);
    expect(withMechanism.rows.every((row) => row.mechanism === mechanism)).toBe(true);
    expect((await query({ judgeId: 'someone-else' })).rows).toEqual([]);
  });

  it('searches rationales and transcripts by word, case-insensitively', async () => {
    const all = await query();
    const cued = all.rows.find((row) => row.flip === 'harmful');
    const { a } = await call('loadRepPair', { repA: cued?.repId as string });
    const words = a.rationale.split(/\s+/).slice(0, 3).join(' ');
    expect(words.length).toBeGreaterThan(5);
    const found = await query({ search: words.toUpperCase() });
    expect(found.rows.map((row) => row.repId)).toContain(cued?.repId);
    // The task text is in every rep's prompt messages.
    expect((await query({ search: 'invoices and mark' })).rows).toHaveLength(6);
    expect((await query({ search: 'no rep says this zq' })).rows).toEqual([]);
    const nothing = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, search: '%' });
    expect(nothing).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('sorts and pages', async () => {
    const first = await query({ sort: 'rep', descending: true, limit: 4 });
    expect(first.rows).toHaveLength(4);
    expect(first.hasMore).toBe(true);
    const reps = first.rows.map((row) => row.rep);
    expect(reps).toEqual([...reps].sort((x, y) => y - x));
    const rest = await query({ sort: 'rep', descending: true, limit: 4, offset: 4 });
    expect(rest.rows).toHaveLength(2);
    expect(rest.hasMore).toBe(false);
    const ids = new Set([...first.rows, ...rest.rows].map((row) => row.repId));
    expect(ids.size).toBe(6);
    // Sorts read from judge_reps' indexes (turns, verdict) and the judge's, each one way.
    const turns = (await query({ sort: 'turns', descending: true })).rows.map((row) => row.turns);
    expect(turns).toEqual([...turns].sort((x, y) => y - x));
    const verdicts = (await query({ sort: 'verdict' })).rows.map((row) => row.verdict ?? '~');
    expect(verdicts).toEqual([...verdicts].sort());
    expect(new Set(verdicts).size).toBeGreaterThan(1);
    const byCondition = (await query({ sort: 'condition', descending: true })).rows;
    const keys = byCondition.map((row) => `${row.conditionKey}/${row.direction}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('opens any rep alone or any two side by side, aligned by tool call', async () => {
    const { rows } = await query();
    const [one, two] = [rows[0], rows[5]].map((row) => row?.repId as string);
    const alone = await call('loadRepPair', { repA: one as string });
    expect(alone.b).toBeNull();
    expect(alone.a.prompt.join('\n')).toContain('Archive the 2023 invoices');
    const pair = await call('loadRepPair', { repA: one as string, repB: two });
    expect(pair.b?.repId).toBe(two);
    expect(pair.alignment.length).toBeGreaterThanOrEqual(
      Math.max(pair.a.calls.length, pair.b?.calls.length ?? 0),
    );
    const missing = await dispatchLabCall(engine.handlers, 'loadRepPair', { repA: 'nope' });
    expect(missing.ok).toBe(false);
  });

  it('says why an imported study has nothing to list, and refuses a bad filter', async () => {
    const file = join(dir.path, 'imported.csv');
    writeFileSync(
      file,
      'item_id,dataset,judge,condition,cue_direction,rep,verdict,score,gold,dimension,turns\n' +
        'i1,d,j,uncued,,1,pass,,pass,task_success,3\n',
    );
    const imported = importResultsFile(engineStore(engine), file, { name: 'imported' });
    const page = await call('queryReps', { studyId: imported.studyId });
    expect(page.rows).toEqual([]);
    expect(page.note).toContain('no stored transcripts');
    const bad = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, verdict: 'maybe' });
    expect(bad.ok).toBe(false);
  });
});
