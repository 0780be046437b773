/** The Replay list's filter, search and sort (src/renderer/features/replay/flip-list-view.ts). */
import { describe, expect, test } from 'vitest';
import {
  defaultFlipListView,
  flipFilterOptions,
  visibleFlips,
} from '../../src/renderer/features/replay/flip-list-view';
import type { FlipSummary } from '../../src/renderer/features/replay/replay-slice';

function flip(repId: string, changes: Partial<FlipSummary>): FlipSummary {
  return {
    ...{ repId, twinRepId: `${repId}-twin`, itemId: 'item-a', judgeId: 'judge-a' },
    ...{ dataset: 'data', conditionKey: 'preset:strong', direction: 'severity', rep: 1 },
    ...{ kind: 'harmful', gold: 'pass', uncuedMajority: 'pass', cuedVerdict: 'fail' },
    ...{ simulated: false, classifierLabels: {} },
    ...changes,
  };
}

const flips = [
  flip('r1', { itemId: 'item-b', judgeId: 'judge-a', classifierLabels: { diff: 'over_trust' } }),
  flip('r2', { itemId: 'item-a', judgeId: 'judge-b', kind: 'helpful', rep: 2 }),
  flip('r3', { itemId: 'item-a', judgeId: 'judge-c', rep: 1, conditionKey: 'preset:weak' }),
];
const ids = (shown: FlipSummary[]) => shown.map((entry) => entry.repId);

describe('visibleFlips', () => {
  test('sorts by item, then rep, by default', () => {
    expect(ids(visibleFlips(flips, defaultFlipListView))).toEqual(['r3', 'r2', 'r1']);
  });

  test('sorts by judge', () => {
    expect(ids(visibleFlips(flips, { ...defaultFlipListView, sortBy: 'judge' }))).toEqual([
      'r1',
      'r2',
      'r3',
    ]);
  });

  test('filters by kind, judge, condition and mechanism', () => {
    const view = defaultFlipListView;
    expect(ids(visibleFlips(flips, { ...view, kind: 'helpful' }))).toEqual(['r2']);
    expect(ids(visibleFlips(flips, { ...view, judgeId: 'judge-c' }))).toEqual(['r3']);
    expect(ids(visibleFlips(flips, { ...view, conditionKey: 'preset:weak' }))).toEqual(['r3']);
    expect(ids(visibleFlips(flips, { ...view, mechanism: 'over_trust' }))).toEqual(['r1']);
  });

  test('searches what a row shows, case-insensitively, mechanism names included', () => {
    expect(ids(visibleFlips(flips, { ...defaultFlipListView, search: 'ITEM-B' }))).toEqual(['r1']);
    expect(ids(visibleFlips(flips, { ...defaultFlipListView, search: 'over-trust' }))).toEqual([
      'r1',
    ]);
  });
});

test('flipFilterOptions lists each value once, sorted', () => {
  expect(flipFilterOptions(flips)).toEqual({
    judgeIds: ['judge-a', 'judge-b', 'judge-c'],
    conditionKeys: ['preset:strong', 'preset:weak'],
    mechanisms: ['over_trust'],
  });
});
