import { afterEach, describe, expect, it } from 'vitest';
import { failureAction } from '../../src/main/engine/runner/failures';
import { studyProgress } from '../../src/main/engine/store/study-state';
import { EngineError } from '../../src/main/engine/errors';
import {
  createFaultStudy,
  dockerFaultSuite,
  workspaceIn,
  type FaultStudy,
} from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// An error that can never succeed fails its rep at once: 60 reps on items the synthetic judge
// cannot judge (no probes and no gold label) used to cost 240 attempts (4 each) before the
// study ended empty.
const dirs: ReturnType<typeof makeTempDir>[] = [];
const studies: FaultStudy[] = [];
afterEach(() => {
  while (studies.length) studies.pop()?.engine.close();
  while (dirs.length) dirs.pop()?.remove();
});

function attemptsOf(study: FaultStudy): { jobs: number; attempts: number; failed: number } {
  return engineStore(study.engine)
    .db.prepare(
      `SELECT count(*) AS jobs, sum(attempts) AS attempts,
         sum(state = 'failed') AS failed FROM jobs WHERE study_id = ?`,
    )
    .get(study.studyId) as { jobs: number; attempts: number; failed: number };
}

describe('errors that can never succeed', () => {
  it('a 60-rep study on items without probes or gold fails each rep once, saying why', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    // The fault suite's items carry no probe plan, and no image: a snapshot, no Docker; without
    // their gold labels the synthetic judge has nothing to decide from.
    const labelled = dockerFaultSuite(undefined, 20);
    const suite = { ...labelled, items: labelled.items.map(({ gold: _gold, ...item }) => item) };
    const study = createFaultStudy(workspaceIn(dir.path), {
      items: 20,
      suite,
      baseUrl: 'http://127.0.0.1:9',
      spec: {
        arms: { cues: [] },
        reps: 3,
        judges: [
          { id: 'sim', provider: 'synthetic', model: 'synthetic', persona: 'deferential-frontier' },
        ],
      },
    });
    studies.push(study);
    const runner = study.runner({ concurrency: 2 });
    runner.start();
    await runner.whenIdle();
    await runner.stop();

    const counts = attemptsOf(study);
    expect(counts.jobs).toBe(60);
    expect(counts.failed).toBe(60);
    expect(counts.attempts).toBeLessThanOrEqual(60 + 2);
    const progress = studyProgress(engineStore(study.engine), study.studyId);
    expect(progress.failed).toBe(60);
    expect(progress.failures[0]?.error).toMatch(
      /cannot succeed on retry: .*has no probes and no gold label/,
    );
  });
});

describe('the retry decision', () => {
  it('retries a full disk and a Docker 5xx as before', () => {
    const disk = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    const docker = Object.assign(new Error('(HTTP code 500) server error'), { statusCode: 500 });
    for (const error of [disk, docker]) {
      expect(failureAction(error, 1).kind).toBe('retry');
      expect(failureAction(error, 3).kind).toBe('retry');
    }
  });

  it('gives an error it cannot classify one retry, then fails it', () => {
    const error = new Error('something odd');
    expect(failureAction(error, 1).kind).toBe('retry');
    expect(failureAction(error, 2)).toEqual({ kind: 'fail', message: 'something odd' });
  });

  it('pauses the study for a permanent failure every rep shares (a missing base image)', () => {
    const error = new EngineError('internal', 'The CueLab base image is not built.', {
      permanent: 'study',
    });
    expect(failureAction(error, 1)).toEqual({
      kind: 'pause',
      message: 'The CueLab base image is not built.',
    });
  });
});
