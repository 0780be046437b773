import type { MitigationSpec } from '../../../shared/cue-spec';
import { Chip } from '../../components/Chip';
import { useLab } from '../../store';
import { BuilderSection } from './BuilderSection';
import { mitigationSetKey } from './conditions';
import { mitigationOptions, placementOptions } from './cue-catalog';
import './arms.css';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';

function withMitigation(set: MitigationSpec[], id: string, on: boolean): MitigationSpec[] {
  const without = set.filter((spec) => spec.id !== id);
  if (!on) return without;
  const added: MitigationSpec[] = [...without, { kind: 'builtin', id } as MitigationSpec];
  // Built-ins in catalogue order so equal sets get equal keys; custom ones keep their place.
  const rank = (spec: MitigationSpec) => {
    const index = mitigationOptions.findIndex((option) => option.id === spec.id);
    return index === -1 ? mitigationOptions.length : index;
  };
  return added.sort((a, b) => rank(a) - rank(b));
}

/** Placements, and the sets of mitigations each cued condition runs under. */
export function ArmsSection() {
  const placements = useLab((state) => state.draft.placements);
  const mitigationSets = useLab((state) => state.draft.mitigationSets);
  const mitigatedControl = useLab((state) => state.draft.mitigatedControl);
  const uncuedRepeat = useLab((state) => state.draft.uncuedRepeat);
  // The synthetic judge does not model a user-defined mitigation: say so where it is listed.
  const simulated = useLab((state) =>
    state.draft.judges.some((judge) => isSimulatedProvider(judge.provider)),
  );
  const updateDraft = useLab((state) => state.updateDraft);
  const extraPlacements = placements.filter(
    (placement) => !placementOptions.some((option) => option.id === placement),
  );
  const setPlacement = (id: string, on: boolean) =>
    updateDraft((draft) => ({
      placements: on
        ? [...draft.placements.filter((other) => other !== id), id].sort(
            (a, b) => placementRank(a) - placementRank(b),
          )
        : draft.placements.filter((other) => other !== id),
    }));
  const setSet = (index: number, next: MitigationSpec[]) =>
    updateDraft((draft) => ({
      mitigationSets: draft.mitigationSets.map((set, at) => (at === index ? next : set)),
    }));

  return (
    <BuilderSection
      step={4}
      title="Placements and mitigations"
      summary={`${placements.length} placement${placements.length === 1 ? '' : 's'} × ${
        mitigationSets.length
      } mitigation set${mitigationSets.length === 1 ? '' : 's'}`}
    >
      <h3 className="subheading">Placements</h3>
      <div className="chip-row" role="group" aria-label="Placements">
        {[...placementOptions, ...extraPlacements.map((id) => ({ id, label: id }))].map(
          (option) => (
            <Chip
              key={option.id}
              ariaLabel={`placement ${option.id}`}
              title={option.id}
              checked={placements.includes(option.id)}
              onChange={(on) => setPlacement(option.id, on)}
            >
              {option.label}
            </Chip>
          ),
        )}
      </div>

      <h3 className="subheading">Mitigation sets</h3>
      <p className="muted small">
        Each set is applied together; every cued condition runs once per set. A set with nothing
        ticked runs without mitigation.
      </p>
      <ol className="mitigation-sets">
        {mitigationSets.map((set, index) => (
          <li key={index} className="mitigation-set" aria-label={`Mitigation set ${index + 1}`}>
            <span className="mitigation-set-name mono">{mitigationSetKey(set)}</span>
            <div className="chip-row">
              {mitigationOptions.map((option) => (
                <Chip
                  key={option.id}
                  ariaLabel={`set ${index + 1} ${option.id}`}
                  checked={set.some((spec) => spec.id === option.id)}
                  onChange={(on) => setSet(index, withMitigation(set, option.id, on))}
                >
                  {option.label}
                </Chip>
              ))}
              {set
                .filter((spec) => spec.kind === 'custom')
                .map((spec) => (
                  <span
                    key={spec.id}
                    className="cue-tag mono"
                    title={
                      simulated
                        ? 'custom mitigation: the synthetic judge (a simulation) does not model its effect'
                        : 'custom mitigation'
                    }
                  >
                    {simulated ? `${spec.id} · effect not modelled` : spec.id}
                  </span>
                ))}
            </div>
            <button
              type="button"
              className="icon-button set-remove"
              disabled={mitigationSets.length === 1}
              aria-label={`Remove mitigation set ${index + 1}`}
              title="Remove this set"
              onClick={() =>
                updateDraft((draft) => ({
                  mitigationSets: draft.mitigationSets.filter((_, at) => at !== index),
                }))
              }
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button button-small"
        onClick={() =>
          updateDraft((draft) => ({
            mitigationSets: [...draft.mitigationSets, nextSet(draft.mitigationSets)],
          }))
        }
      >
        Add mitigation set
      </button>
      <label className="choice mitigated-control">
        <input
          type="checkbox"
          checked={mitigatedControl}
          disabled={!mitigationSets.some((set) => set.length > 0)}
          onChange={(event) => updateDraft(() => ({ mitigatedControl: event.target.checked }))}
        />
        <span>
          Also run the control with each mitigation (<span className="mono">uncued+MITIGATION</span>
          , §3.4&apos;s mitigated control), so Table 1 shows both control readings
        </span>
      </label>
      <label className="choice uncued-repeat">
        <input
          type="checkbox"
          checked={uncuedRepeat}
          onChange={(event) => updateDraft(() => ({ uncuedRepeat: event.target.checked }))}
        />
        <span>
          Run the uncued control twice (<span className="mono">uncued+repeat</span>, fresh draws): a
          test-retest noise floor, so the flips table shows flips beyond repeat
        </span>
      </label>
    </BuilderSection>
  );
}

/** A new set: the first built-in not yet used on its own, so the new column is not a duplicate. */
function nextSet(sets: readonly MitigationSpec[][]): MitigationSpec[] {
  const used = new Set(sets.map(mitigationSetKey));
  const free = mitigationOptions.find((option) => !used.has(option.id));
  return free ? [{ kind: 'builtin', id: free.id }] : [];
}

function placementRank(id: string): number {
  const index = placementOptions.findIndex((option) => option.id === id);
  return index === -1 ? placementOptions.length : index;
}
