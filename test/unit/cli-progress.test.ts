import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../src/main/cli/progress';
import type { StudyProgress } from '../../src/shared/study-progress';

const running: StudyProgress = {
  studyId: 's',
  status: 'running',
  pausedReason: null,
  arms: [],
  total: 6,
  plannedTotal: 18,
  done: 3,
  failed: 0,
  running: 2,
  costUsd: 0,
  unpricedReps: 0,
  etaSeconds: 75,
  repsPerMinute: 12.5,
  retrying: 0,
  outcomes: { verdict: 3, invalidVerdict: 0, budgetExhausted: 0 },
  retries: [],
  undeterminedItems: 0,
  failures: [],
  missingReps: 0,
  importedReps: 0,
};

describe('the CLI progress line', () => {
  it('counts against the planned total and prints the measured ETA and pace', () => {
    expect(formatProgress(running)).toBe(
      '[3/18] 16% · 2 running · eta 1m15s · 12.5 reps/min · $0.00 · 0 failed · running',
    );
  });

  it('says eta – only before any rep finished, and nothing of time once the study ended', () => {
    const fresh = { ...running, done: 0, etaSeconds: null, repsPerMinute: null };
    expect(formatProgress(fresh)).toContain('· eta – ·');
    const completed = { ...running, status: 'completed' as const, done: 18, etaSeconds: 0 };
    expect(formatProgress(completed)).toBe(
      '[18/18] 100% · 2 running · $0.00 · 0 failed · completed',
    );
  });
});
