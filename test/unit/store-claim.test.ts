import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/engine/store';
import { claimJob, insertJob, type ClaimedJob } from '../../src/main/engine/store/faces/jobs';
import { insertStudyRows } from '../../src/main/engine/store/faces/studies';
import { queuedClaimSql } from '../../src/main/engine/store/jobs';
import { studySpecSchema } from '../../src/shared/study-spec';
import { insertMiniSuiteRow } from '../helpers/mini-suite-row';
import { makeTempDir } from '../helpers/temp-dir';

// Which job a claim takes (claims read candidates one by one and skip the per-judge
// count when no judge has a limit): uncued first, then by id; a judge at its limit, an
// excluded study or one outside `onlyStudies` is passed over for the next eligible job.
let folder: ReturnType<typeof makeTempDir>;
let store: Store;

function addStudy(id: string): void {
  insertStudyRows(store, {
    id,
    spec: studySpecSchema.parse({
      name: id,
      suite: 'mini',
      judges: [
        { id: 'first', provider: 'anthropic', model: 'claude-sonnet-4-6' },
        { id: 'second', provider: 'anthropic', model: 'claude-sonnet-4-6' },
      ],
      reps: 2,
    }),
    simulated: true,
    now: '2026-01-01T00:00:00.000Z',
    items: [{ id: 'item', dataset: 'mini', gold: 'pass' }],
    conditions: [{ key: 'uncued', label: 'uncued', cue: null, placement: null, mitigations: [] }],
  });
}

/** Queues an uncued job of the study's one item. */
function queue(studyId: string, judgeId: string, rep: number): void {
  insertJob(store, {
    studyId,
    conditionKey: 'uncued',
    itemId: 'item',
    judgeId,
    rep,
    direction: '',
  });
}

function describeJob(job: ClaimedJob | null): string | null {
  return job ? `${job.studyId}/${job.judgeId}/${job.conditionKey}/${job.rep}` : null;
}

beforeEach(() => {
  folder = makeTempDir('cuelab-store-claim-');
  store = openStore(join(folder.path, 'workspace.sqlite'));
  insertMiniSuiteRow(store);
  addStudy('study-a');
  addStudy('study-b');
});

afterEach(() => {
  store.close();
  folder.remove();
});

describe('claimJob', () => {
  it('takes uncued jobs first, then by id, each once', () => {
    insertJob(store, {
      studyId: 'study-a',
      conditionKey: 'cued',
      itemId: 'item',
      judgeId: 'first',
      rep: 1,
      direction: 'severity',
    });
    queue('study-a', 'first', 1);
    queue('study-a', 'first', 2);
    const claims = [1, 2, 3, 4].map(() =>
      describeJob(claimJob(store, 1, 30_000, { perJudge: {} })),
    );
    expect(claims).toEqual([
      'study-a/first/uncued/1',
      'study-a/first/uncued/2',
      'study-a/first/cued/1',
      null,
    ]);
  });

  it('passes over a judge at its limit for the next eligible job', () => {
    queue('study-a', 'first', 1);
    queue('study-a', 'first', 2);
    queue('study-a', 'second', 1);
    const limits = { perJudge: { first: 1 } };
    expect(describeJob(claimJob(store, 1, 30_000, limits))).toBe('study-a/first/uncued/1');
    expect(describeJob(claimJob(store, 1, 30_000, limits))).toBe('study-a/second/uncued/1');
    expect(claimJob(store, 1, 30_000, limits)).toBeNull();
    // An expired lease no longer counts as busy: the judge's next job is claimable then.
    expect(describeJob(claimJob(store, 1, 30_000, limits, Date.now() + 60_000))).toBe(
      'study-a/first/uncued/1',
    );
  });

  it('skips excluded studies and keeps to onlyStudies', () => {
    queue('study-a', 'first', 1);
    queue('study-b', 'first', 1);
    queue('study-b', 'first', 2);
    const excluded = { perJudge: {}, excludeStudies: ['study-a'] };
    expect(describeJob(claimJob(store, 1, 30_000, excluded))).toBe('study-b/first/uncued/1');
    const only = { perJudge: {}, onlyStudies: ['study-a'] };
    expect(describeJob(claimJob(store, 1, 30_000, only))).toBe('study-a/first/uncued/1');
    expect(claimJob(store, 1, 30_000, only)).toBeNull();
    expect(describeJob(claimJob(store, 1, 30_000, { perJudge: {} }))).toBe(
      'study-b/first/uncued/2',
    );
  });

  it('takes over an expired lease in its place in the claim order', () => {
    queue('study-a', 'first', 1);
    queue('study-a', 'first', 2);
    queue('study-a', 'second', 1);
    const crashed = claimJob(store, 1, 30_000, { perJudge: {} }, 1_000);
    expect(describeJob(crashed)).toBe('study-a/first/uncued/1');
    // Its worker died: after the lease ran out, the job comes back before the later queued ones.
    const again = claimJob(store, 2, 30_000, { perJudge: {} }, 40_000);
    expect(again?.id).toBe(crashed?.id);
    expect(again?.attempts).toBe(1);
    expect(describeJob(claimJob(store, 2, 30_000, { perJudge: {} }, 40_000))).toBe(
      'study-a/first/uncued/2',
    );
    // A lease that runs out after the queue has moved on is taken when its turn comes: now.
    const late = claimJob(store, 3, 30_000, { perJudge: {} }, 40_000);
    expect(describeJob(late)).toBe('study-a/second/uncued/1');
    expect(claimJob(store, 3, 30_000, { perJudge: {} }, 41_000)).toBeNull();
    expect(claimJob(store, 3, 30_000, { perJudge: {} }, 80_000)?.id).toBe(crashed?.id);
  });

  it('reads queued jobs off the claim-order index, sorting nothing', () => {
    const plan = store.db
      .prepare<[number], { detail: string }>(`EXPLAIN QUERY PLAN ${queuedClaimSql}`)
      .all(0)
      .map((row) => row.detail);
    expect(plan.join('\n')).toContain('jobs_claim_order');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
  });
});
