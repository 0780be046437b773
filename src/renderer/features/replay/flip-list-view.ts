/**
 * What the Replay list shows of a study's flips: filtered, searched and sorted on the client.
 * `listFlips` returns every flip of the study, so nothing here needs the engine.
 */
import { mechanismName } from './mechanisms';
import type { FlipSummary } from './replay-slice';

/** The columns the list sorts by. */
export type FlipSortKey = 'item' | 'judge' | 'condition' | 'kind' | 'mechanism';

/** The list's filter, search and sort; an empty string means "any". */
export interface FlipListView {
  kind: '' | 'harmful' | 'helpful';
  judgeId: string;
  conditionKey: string;
  /** A mechanism label as the classifiers store it, e.g. `over_trust`. */
  mechanism: string;
  /** Case-insensitive substring over what a row shows. */
  search: string;
  sortBy: FlipSortKey;
}

/** The view a study opens with: every flip, by item. */
export const defaultFlipListView: FlipListView = {
  kind: '',
  judgeId: '',
  conditionKey: '',
  mechanism: '',
  search: '',
  sortBy: 'item',
};

/** The distinct values of each filter among the flips, sorted, for the filter menus. */
export function flipFilterOptions(flips: readonly FlipSummary[]): {
  judgeIds: string[];
  conditionKeys: string[];
  mechanisms: string[];
} {
  const distinct = (values: string[]) => [...new Set(values)].sort();
  return {
    judgeIds: distinct(flips.map((flip) => flip.judgeId)),
    conditionKeys: distinct(flips.map((flip) => flip.conditionKey)),
    mechanisms: distinct(flips.flatMap((flip) => Object.values(flip.classifierLabels))),
  };
}

/** The text a row shows, lower-cased, that the search box looks through. */
function searchableText(flip: FlipSummary): string {
  const labels = Object.entries(flip.classifierLabels).flatMap(([source, label]) => [
    source,
    label,
    mechanismName(label),
  ]);
  return [
    flip.itemId,
    flip.judgeId,
    flip.dataset,
    flip.conditionKey,
    flip.direction,
    flip.kind,
    flip.gold,
    flip.uncuedMajority,
    flip.cuedVerdict,
    ...labels,
  ]
    .join(' ')
    .toLowerCase();
}

/** The first mechanism label of a flip (by source name), or '' when it has none. */
function firstMechanism(flip: FlipSummary): string {
  const sources = Object.keys(flip.classifierLabels).sort();
  const first = sources[0];
  return first === undefined ? '' : mechanismName(flip.classifierLabels[first] ?? '');
}

function sortValue(flip: FlipSummary, key: FlipSortKey): string {
  switch (key) {
    case 'item':
      return flip.itemId;
    case 'judge':
      return flip.judgeId;
    case 'condition':
      return flip.conditionKey;
    case 'kind':
      return flip.kind;
    case 'mechanism':
      return firstMechanism(flip);
  }
}

/** The flips the list shows under `view`; ties keep item, then rep order. */
export function visibleFlips(flips: readonly FlipSummary[], view: FlipListView): FlipSummary[] {
  const search = view.search.trim().toLowerCase();
  const shown = flips.filter(
    (flip) =>
      (view.kind === '' || flip.kind === view.kind) &&
      (view.judgeId === '' || flip.judgeId === view.judgeId) &&
      (view.conditionKey === '' || flip.conditionKey === view.conditionKey) &&
      (view.mechanism === '' || Object.values(flip.classifierLabels).includes(view.mechanism)) &&
      (search === '' || searchableText(flip).includes(search)),
  );
  return shown.sort(
    (a, b) =>
      sortValue(a, view.sortBy).localeCompare(sortValue(b, view.sortBy)) ||
      a.itemId.localeCompare(b.itemId) ||
      a.rep - b.rep,
  );
}
