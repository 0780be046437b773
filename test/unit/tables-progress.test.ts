/** The Results page's line while the engine draws a study's tables (TablesProgress.tsx). */
import { describe, expect, it } from 'vitest';
import { tablesProgressText } from '../../src/renderer/features/results/TablesProgress';
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
});
