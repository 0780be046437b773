/** The Replay list's filter, search and sort: labelled native inputs, reached by Tab. */
import { useId } from 'react';
import type { FlipSummary } from './replay-slice';
import { mechanismName } from './mechanisms';
import { flipFilterOptions, type FlipListView, type FlipSortKey } from './flip-list-view';

const sortKeys: { value: FlipSortKey; label: string }[] = [
  { value: 'item', label: 'Item' },
  { value: 'judge', label: 'Judge' },
  { value: 'condition', label: 'Condition' },
  { value: 'kind', label: 'Kind' },
  { value: 'mechanism', label: 'Mechanism' },
];

function FilterSelect({
  label,
  value,
  options,
  onChange,
  any = true,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  /** Offers "Any" (no filter) first; a sort has no such choice. */
  any?: boolean;
}) {
  // A label beside (not around) the select, so its name is the label alone, not the choice.
  const id = useId();
  return (
    <span className="replay-field flip-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {any && <option value="">Any</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Props: every flip of the study (for the menus), the view, and how to change it. */
export function FlipListControls({
  flips,
  view,
  shownCount,
  onChange,
}: {
  flips: FlipSummary[];
  view: FlipListView;
  shownCount: number;
  onChange: (view: FlipListView) => void;
}) {
  const options = flipFilterOptions(flips);
  const plain = (values: string[]) => values.map((value) => ({ value, label: value }));
  const filtered =
    view.kind !== '' ||
    view.judgeId !== '' ||
    view.conditionKey !== '' ||
    view.mechanism !== '' ||
    view.search.trim() !== '';
  return (
    <div className="flip-controls" role="group" aria-label="Filter, search and sort the flips">
      <label className="replay-field flip-search">
        <span>Search</span>
        <input
          type="search"
          value={view.search}
          placeholder="Item, judge, label…"
          onChange={(event) => onChange({ ...view, search: event.target.value })}
        />
      </label>
      <FilterSelect
        label="Kind"
        value={view.kind}
        options={[
          { value: 'harmful', label: 'harmful' },
          { value: 'helpful', label: 'helpful' },
        ]}
        onChange={(kind) => onChange({ ...view, kind: kind as FlipListView['kind'] })}
      />
      <FilterSelect
        label="Judge"
        value={view.judgeId}
        options={plain(options.judgeIds)}
        onChange={(judgeId) => onChange({ ...view, judgeId })}
      />
      <FilterSelect
        label="Condition"
        value={view.conditionKey}
        options={plain(options.conditionKeys)}
        onChange={(conditionKey) => onChange({ ...view, conditionKey })}
      />
      <FilterSelect
        label="Mechanism"
        value={view.mechanism}
        options={options.mechanisms.map((value) => ({ value, label: mechanismName(value) }))}
        onChange={(mechanism) => onChange({ ...view, mechanism })}
      />
      <FilterSelect
        label="Sort by"
        value={view.sortBy}
        options={sortKeys}
        any={false}
        onChange={(sortBy) => onChange({ ...view, sortBy: sortBy as FlipSortKey })}
      />
      <span className="flip-shown">
        <span className="muted" data-testid="flip-shown" aria-live="polite">
          {shownCount} of {flips.length} shown
        </span>
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() => onChange({ ...view, ...clearedFilters })}
          >
            Clear
          </button>
        )}
      </span>
    </div>
  );
}

const clearedFilters = {
  kind: '',
  judgeId: '',
  conditionKey: '',
  mechanism: '',
  search: '',
} as const;
