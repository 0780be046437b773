import { useEffect, useMemo, useState } from 'react';
import { Chip } from '../../components/Chip';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import type { SuiteItemSummary } from './builder-slice';
import { BuilderSection } from './BuilderSection';

type FilterKey = 'dataset' | 'substrate' | 'gold';
type Filters = Record<FilterKey, string[]>;

const filterLabels: Record<FilterKey, string> = {
  dataset: 'Dataset',
  substrate: 'Substrate',
  gold: 'Gold label',
};

function valueOf(item: SuiteItemSummary, key: FilterKey): string {
  return key === 'gold' ? (item.gold ?? 'unlabelled') : item[key];
}

function matches(item: SuiteItemSummary, filters: Filters, except?: FilterKey): boolean {
  return (Object.keys(filters) as FilterKey[]).every(
    (key) =>
      key === except || filters[key].length === 0 || filters[key].includes(valueOf(item, key)),
  );
}

/** Suite and items: pick a suite, narrow the list by dataset, substrate and gold, tick items. */
export function ItemsSection() {
  const suites = useLab((state) => state.suites);
  const suiteItems = useLab((state) => state.suiteItems);
  const suiteId = useLab((state) => state.draft.suiteId);
  const itemIds = useLab((state) => state.draft.itemIds);
  const itemFilter = useLab((state) => state.draft.itemFilter);
  const updateDraft = useLab((state) => state.updateDraft);
  const loadSuiteItems = useLab((state) => state.loadSuiteItems);
  const connected = useLab((state) => state.status === 'connected');
  const [filters, setFilters] = useState<Filters>({ dataset: [], substrate: [], gold: [] });

  useEffect(() => {
    if (connected && suiteId) void loadSuiteItems(suiteId);
  }, [connected, suiteId, loadSuiteItems]);

  const suiteList = loadedValue(suites) ?? [];
  const suite = suiteList.find((candidate) => candidate.id === suiteId);
  const items = useMemo(
    () => (suiteItems.suiteId === suiteId ? (loadedValue(suiteItems) ?? []) : []),
    [suiteItems, suiteId],
  );
  const shown = items.filter((item) => matches(item, filters));
  const selected = new Set(itemIds);
  const byFilter = itemFilter
    ? items.filter(
        (item) =>
          (!itemFilter.ids || itemFilter.ids.includes(item.id)) &&
          (!itemFilter.datasets || itemFilter.datasets.includes(item.dataset)) &&
          (!itemFilter.substrates || itemFilter.substrates.includes(item.substrate)) &&
          (!itemFilter.gold || (item.gold !== null && itemFilter.gold.includes(item.gold))),
      )
    : null;
  const isChosen = (item: SuiteItemSummary) =>
    byFilter ? byFilter.includes(item) : selected.has(item.id);

  const setSelection = (ids: Iterable<string>) =>
    updateDraft(() => ({ itemIds: [...new Set(ids)] }));
  const toggleItem = (id: string, on: boolean) =>
    setSelection(on ? [...itemIds, id] : itemIds.filter((other) => other !== id));
  const toggleFilter = (key: FilterKey, value: string, on: boolean) =>
    setFilters((current) => ({
      ...current,
      [key]: on ? [...current[key], value] : current[key].filter((other) => other !== value),
    }));

  const chosenCount = byFilter
    ? Math.min(byFilter.length, itemFilter?.limit ?? Infinity)
    : selected.size;
  return (
    <BuilderSection
      step={1}
      title="Suite and items"
      summary={`${chosenCount} of ${items.length} items`}
    >
      <div className="field-row">
        <label className="field field-grow">
          <span className="field-label">Suite</span>
          <select
            className="select"
            value={suiteId}
            onChange={(event) =>
              updateDraft(() => ({ suiteId: event.target.value, itemIds: [], itemFilter: null }))
            }
          >
            {!suite && (
              <option value="">{suiteList.length ? 'Choose a suite' : 'No suites yet'}</option>
            )}
            {suiteList.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name} ({option.itemCount} items
                {option.origin === 'builtin' ? ', built in' : ''})
              </option>
            ))}
          </select>
        </label>
      </div>
      {suites.state === 'loaded' && suiteList.length === 0 && (
        <p className="muted">
          This workspace has no suites. Import one with <code>cuelab suite import FILE</code>; the
          built-in <code>cuelab-mini</code> appears once the engine has its resources.
        </p>
      )}
      {suite && <p className="suite-description">{suite.description}</p>}

      {itemFilter && (
        <div className="banner banner-info">
          The loaded spec chooses items by filter ({describeFilter(itemFilter)}).{' '}
          <button
            type="button"
            className="button button-small"
            onClick={() =>
              updateDraft(() => ({
                itemFilter: null,
                itemIds: (byFilter ?? []).slice(0, itemFilter.limit).map((item) => item.id),
              }))
            }
          >
            Pick items by hand
          </button>
        </div>
      )}

      {items.length > 0 && (
        <div className="item-filters">
          {(Object.keys(filterLabels) as FilterKey[]).map((key) => {
            const values = [...new Set(items.map((item) => valueOf(item, key)))].sort();
            return (
              <div className="filter-group" key={key} role="group" aria-label={filterLabels[key]}>
                <span className="field-label">{filterLabels[key]}</span>
                <div className="chip-row">
                  {values.map((value) => (
                    <Chip
                      key={value}
                      checked={filters[key].includes(value)}
                      onChange={(on) => toggleFilter(key, value, on)}
                      count={
                        items.filter(
                          (item) => valueOf(item, key) === value && matches(item, filters, key),
                        ).length
                      }
                    >
                      {value}
                    </Chip>
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      )}

      {items.length > 0 && (
        <>
          <div className="list-toolbar">
            <span className="muted tabular">
              Showing {shown.length} of {items.length} · {chosenCount} selected
            </span>
            <span className="list-toolbar-actions">
              <button
                type="button"
                className="button button-small"
                disabled={Boolean(itemFilter)}
                onClick={() => setSelection([...itemIds, ...shown.map((item) => item.id)])}
              >
                Select all shown
              </button>
              <button
                type="button"
                className="button button-small"
                disabled={Boolean(itemFilter)}
                onClick={() => setSelection([])}
              >
                Select none
              </button>
            </span>
          </div>
          <div className="item-list" role="group" aria-label="Items">
            {shown.map((item) => (
              <label key={item.id} className="item-row" data-checked={isChosen(item)}>
                <input
                  type="checkbox"
                  checked={isChosen(item)}
                  disabled={Boolean(itemFilter)}
                  aria-label={item.id}
                  onChange={(event) => toggleItem(item.id, event.target.checked)}
                />
                <span className="item-id mono">{item.id}</span>
                <span className="item-meta">{item.dataset}</span>
                <span className={`gold gold-${item.gold ?? 'none'}`}>{item.gold ?? '—'}</span>
                <span className="item-note" title={item.note ?? undefined}>
                  {item.note ?? ''}
                </span>
              </label>
            ))}
            {shown.length === 0 && (
              <p className="muted item-empty">No item matches these filters.</p>
            )}
          </div>
        </>
      )}
      {suiteItems.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not list the suite’s items: {suiteItems.error}
        </div>
      )}
    </BuilderSection>
  );
}

function describeFilter(filter: object): string {
  return Object.entries(filter)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}
