/** The Results page's line while the engine draws a study's tables (TablesProgress.tsx). */
import { describe, expect, it } from 'vitest';
import {
  outdatedText,
  tablesProgressText,
} from '../../src/renderer/features/results/tables-progress-text';
import { labEvents } from '../../src/shared/lab-api';

describe('the tables progress line', () => {
  it('says how many reps and how many tables, from a study.tables event', () => {
    const event = labEvents['study.tables'].parse({
      studyId: 's',
      done: 5,
      total: 16,
      step: 'effort',
      reps: 70560,
    });
    expect(tablesProgressText(event)).toBe('Drawing tables from 70,560 reps: 5 of 16');
    expect(tablesProgressText({ ...event, reps: 1, done: 0 })).toBe(
      'Drawing tables from 1 rep: 0 of 16',
    );
  });

  it('refuses an event without its counts', () => {
    expect(labEvents['study.tables'].safeParse({ studyId: 's', step: 'x' }).success).toBe(false);
  });

  it('says what an out-of-date table covers, and the drawing that replaces it', () => {
    const outdated = { drawnFromReps: 70400, studyReps: 70560, drawnAt: '2026-12-04T14:02:00Z' };
    const event = labEvents['study.tables'].parse({
      studyId: 's',
      done: 5,
      total: 16,
      step: 'effort',
      reps: 70560,
    });
    const at = new Date(outdated.drawnAt).toLocaleString('en-US', {
      hour: '2-digit',
      minute: '2-digit',
      month: 'short',
      day: 'numeric',
    });
    expect(outdatedText(outdated, null, 'en-US')).toBe(
      `Drawn from 70,400 of 70,560 reps at ${at}; updating…`,
    );
    expect(outdatedText(outdated, event, 'en-US')).toBe(
      `Drawn from 70,400 of 70,560 reps at ${at}; updating… 5 of 16 tables`,
    );
    expect(outdatedText(outdated, { ...event, error: 'disk full' }, 'en-US')).toBe(
      `Drawn from 70,400 of 70,560 reps at ${at}; the current tables could not be drawn: disk full`,
    );
    // Reps taken away since (jobs reset) are said as they are, never as "of".
    expect(outdatedText({ ...outdated, studyReps: 70000 }, null, 'en-US')).toBe(
      `Drawn from 70,400 reps (the study now has 70,000) at ${at}; updating…`,
    );
  });
});
