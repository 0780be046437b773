import { useMemo } from 'react';
import type { CueDirection } from '../../../shared/cue-spec';
import { loadedValue } from '../../lib/loadable';
import { labStore, useLab } from '../../store';
import { draftArms } from './builder-draft';
import { BuilderSection } from './BuilderSection';
import {
  conditionKey,
  countConditions,
  countControls,
  cueKey,
  expandCuedConditions,
  mitigationSetKey,
  uncuedKey,
  uncuedRepeatKey,
} from './conditions';
import './arms.css';

/** The direction a preview shows first: against the item's gold label, as `opposite` would. */
export function previewDirection(itemId: string): CueDirection {
  const { draft, suiteItems } = labStore.getState();
  if (draft.direction === 'severity' || draft.direction === 'leniency') return draft.direction;
  const item = loadedValue(suiteItems)?.find((candidate) => candidate.id === itemId);
  return item?.gold === 'fail' ? 'leniency' : 'severity';
}

/** Opens the prompt preview for a condition on the first chosen item. */
export function previewCondition(conditionKey: string): void {
  const { draft, suiteItems, preview, openPreview } = labStore.getState();
  const items = loadedValue(suiteItems) ?? [];
  const itemId =
    preview?.target.itemId ??
    draft.itemIds[0] ??
    items.find((item) => draft.itemFilter?.ids?.includes(item.id) ?? true)?.id;
  if (!itemId) return;
  void openPreview({ conditionKey, itemId, direction: previewDirection(itemId) });
}

/**
 * Every condition the choices make: the uncued control, then cues (rows) × placements and
 * mitigation sets (columns). Unticking a cell drops it (`arms.drop`); the eye opens its prompt.
 */
export function ConditionGrid() {
  const draft = useLab((state) => state.draft);
  const previewKey = useLab((state) => state.preview?.target.conditionKey);
  const updateDraft = useLab((state) => state.updateDraft);
  const registry = useLab((state) => state.cueFamilies);
  const arms = useMemo(
    () => ({
      ...draftArms(draft),
      families: loadedValue(registry)?.families.map((entry) => entry.family),
    }),
    [draft, registry],
  );
  const cells = useMemo(() => expandCuedConditions(arms), [arms]);
  const byKey = new Map(cells.map((cell) => [cell.key, cell]));
  const rows = [...new Map(arms.cues.map((cue) => [cueKey(cue), cue])).values()];
  const columns = arms.placements.flatMap((placement) =>
    arms.mitigations.map((mitigations) => ({ placement, mitigations })),
  );
  const conditions = countConditions(arms);
  const controls = countControls(arms);
  const dropped = cells.filter((cell) => cell.dropped).length;
  const showSets =
    arms.mitigations.length > 1 || mitigationSetKey(arms.mitigations[0] ?? []) !== 'none';

  const setDropped = (key: string, drop: boolean) =>
    updateDraft((current) => ({
      drop: drop
        ? [...current.drop.filter((k) => k !== key), key]
        : current.drop.filter((k) => k !== key),
    }));

  return (
    <BuilderSection
      step={5}
      title="Conditions"
      testId="condition-grid"
      summary={
        <span className="tabular" data-testid="condition-count" data-conditions={conditions}>
          {conditions} condition{conditions === 1 ? '' : 's'} ({controls} control
          {controls === 1 ? '' : 's'} + {conditions - controls} cued
          {dropped > 0 ? `, ${dropped} dropped` : ''})
        </span>
      }
    >
      <div className="condition-grid-scroll">
        <table className="condition-grid">
          <colgroup>
            <col className="cue-column" />
            {columns.map(({ placement, mitigations }) => (
              <col key={`${placement}+${mitigationSetKey(mitigations)}`} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Cue</th>
              {columns.map(({ placement, mitigations }) => (
                <th scope="col" key={`${placement}+${mitigationSetKey(mitigations)}`}>
                  <span className="mono">{placement}</span>
                  {showSets && <span className="column-set">{mitigationSetKey(mitigations)}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="control-row">
              <th scope="row">uncued (control)</th>
              <td colSpan={Math.max(1, columns.length)}>
                <span className="control-cell">
                  <span className="muted">always runs: every item × judge × rep</span>
                  <PreviewButton conditionKey={uncuedKey} active={previewKey === uncuedKey} />
                </span>
              </td>
            </tr>
            {controls > 1 && (
              <tr className="control-row" data-key={uncuedRepeatKey}>
                <th scope="row">uncued repeat</th>
                <td colSpan={Math.max(1, columns.length)}>
                  <span className="control-cell">
                    <span className="muted">
                      the control again, fresh draws: every item × judge × rep
                    </span>
                    <PreviewButton
                      conditionKey={uncuedRepeatKey}
                      active={previewKey === uncuedRepeatKey}
                    />
                  </span>
                </td>
              </tr>
            )}
            {rows.map((cue) => {
              const rowKey = cueKey(cue);
              return (
                <tr key={rowKey}>
                  <th scope="row" className="mono">
                    {rowKey}
                  </th>
                  {columns.map(({ placement, mitigations }) => {
                    const key = conditionKey(cue, placement, mitigations);
                    const cell = byKey.get(key);
                    if (!cell) return <td key={key} />;
                    return (
                      <td
                        key={key}
                        className="condition-cell"
                        data-dropped={cell.dropped}
                        data-key={key}
                      >
                        <div className="condition-cell-inner">
                          <label title={key}>
                            <input
                              type="checkbox"
                              checked={!cell.dropped}
                              aria-label={`include ${key}`}
                              onChange={(event) => setDropped(key, !event.target.checked)}
                            />
                            <span className="condition-cell-text">
                              {cell.dropped ? 'dropped' : 'runs'}
                            </span>
                          </label>
                          <PreviewButton conditionKey={key} active={previewKey === key} />
                        </div>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && (
        <p className="muted small">
          No cue chosen: the study runs the uncued control only. Tick a preset or axis levels above.
        </p>
      )}
    </BuilderSection>
  );
}

function PreviewButton({ conditionKey, active }: { conditionKey: string; active: boolean }) {
  return (
    <button
      type="button"
      className="preview-button"
      aria-pressed={active}
      aria-label={`preview prompt for ${conditionKey}`}
      title="Show the exact prompt"
      onClick={() => previewCondition(conditionKey)}
    >
      <svg
        width="14"
        height="14"
        viewBox="0 0 16 16"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        aria-hidden="true"
      >
        <path d="M1.5 8s2.4-4.5 6.5-4.5S14.5 8 14.5 8 12.1 12.5 8 12.5 1.5 8 1.5 8Z" />
        <circle cx="8" cy="8" r="2" />
      </svg>
    </button>
  );
}
