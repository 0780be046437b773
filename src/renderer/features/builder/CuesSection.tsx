import type { DirectionPolicy } from '../../../shared/study-spec';
import { CueFamiliesPicker } from './CueFamiliesPicker';
import { Chip } from '../../components/Chip';
import { useLab } from '../../store';
import { axisProduct } from './builder-draft';
import { BuilderSection } from './BuilderSection';
import { cueKey } from './conditions';
import { cueAxes, presetOptions, type PresetOption } from './cue-catalog';
import './arms.css';

const directionChoices: { id: DirectionPolicy; label: string; hint: string }[] = [
  { id: 'opposite', label: 'Opposite', hint: 'against each item’s uncued majority (the paper)' },
  { id: 'severity', label: 'Severity', hint: 'always toward FAIL' },
  { id: 'leniency', label: 'Leniency', hint: 'always toward PASS' },
  { id: 'both', label: 'Both', hint: 'each cued condition runs in both directions' },
];

const groups = [...new Set(presetOptions.map((option) => option.group))];

function toggled(list: readonly string[], value: string, on: boolean): string[] {
  return on ? [...list.filter((other) => other !== value), value] : list.filter((v) => v !== value);
}

/** Cues: presets, a matrix of axis levels, and which way each cue points. */
export function CuesSection() {
  const presets = useLab((state) => state.draft.presets);
  const axisLevels = useLab((state) => state.draft.axisLevels);
  const otherCues = useLab((state) => state.draft.otherCues);
  const direction = useLab((state) => state.draft.direction);
  const updateDraft = useLab((state) => state.updateDraft);
  const cells = axisProduct(axisLevels).length;
  const unknownPresets = presets.filter((id) => !presetOptions.some((option) => option.id === id));
  const cueCount = presets.length + cells + otherCues.length;

  const presetChip = (option: Pick<PresetOption, 'id' | 'label'>) => (
    <Chip
      key={option.id}
      checked={presets.includes(option.id)}
      ariaLabel={`preset ${option.id}`}
      title={option.id}
      onChange={(on) =>
        updateDraft((draft) => ({ presets: toggled(draft.presets, option.id, on) }))
      }
    >
      {option.label}
    </Chip>
  );

  return (
    <BuilderSection step={3} title="Cues" summary={`${cueCount} cue${cueCount === 1 ? '' : 's'}`}>
      <h3 className="subheading">Presets</h3>
      <div className="preset-groups">
        {groups.map((group) => (
          <div key={group} className="preset-group" role="group" aria-label={group}>
            <span className="field-label">{group}</span>
            <div className="chip-row">
              {presetOptions.filter((option) => option.group === group).map(presetChip)}
            </div>
          </div>
        ))}
        {unknownPresets.length > 0 && (
          <div className="preset-group" role="group" aria-label="Other presets">
            <span className="field-label">Other presets (from the loaded spec)</span>
            <div className="chip-row">
              {unknownPresets.map((id) => presetChip({ id, label: id }))}
            </div>
          </div>
        )}
      </div>

      <h3 className="subheading">
        Axis matrix{' '}
        <span className="muted">
          ({cells} cell{cells === 1 ? '' : 's'})
        </span>
      </h3>
      <p className="muted small">
        Every combination of the levels you tick becomes a cue; an axis with nothing ticked stays at
        the paper’s strongest cell (belief, declarative, domain expert, definitely, strong).
      </p>
      <div className="axis-grid">
        {cueAxes.map(({ axis, label, levels }) => (
          <div key={axis} className="axis-row" role="group" aria-label={label}>
            <span className="field-label">{label}</span>
            <div className="chip-row">
              {levels.map((level) => (
                <Chip
                  key={level}
                  ariaLabel={`${axis} ${level}`}
                  checked={axisLevels[axis]?.includes(level) ?? false}
                  onChange={(on) =>
                    updateDraft((draft) => ({
                      axisLevels: {
                        ...draft.axisLevels,
                        [axis]: toggled(draft.axisLevels[axis] ?? [], level, on),
                      },
                    }))
                  }
                >
                  {level}
                </Chip>
              ))}
            </div>
          </div>
        ))}
      </div>

      <CueFamiliesPicker />

      {otherCues.some((cue) => cue.kind !== 'family') && (
        <>
          <h3 className="subheading">Other cues (from the loaded spec)</h3>
          <div className="chip-row">
            {otherCues.map((cue, index) =>
              cue.kind === 'family' ? null : (
                <span key={index} className="cue-tag mono">
                  {cueKey(cue)}
                  <button
                    type="button"
                    className="cue-tag-remove"
                    aria-label={`Remove ${cueKey(cue)}`}
                    onClick={() =>
                      updateDraft((draft) => ({
                        otherCues: draft.otherCues.filter((_, at) => at !== index),
                      }))
                    }
                  >
                    ×
                  </button>
                </span>
              ),
            )}
          </div>
        </>
      )}

      <h3 className="subheading">Direction</h3>
      <div className="chip-row" role="radiogroup" aria-label="Direction policy">
        {directionChoices.map((choice) => (
          <Chip
            key={choice.id}
            radio
            name="direction-policy"
            checked={direction === choice.id}
            title={choice.hint}
            onChange={() => updateDraft(() => ({ direction: choice.id }))}
          >
            {choice.label}
          </Chip>
        ))}
      </div>
      <p className="muted small direction-hint">
        {directionChoices.find((choice) => choice.id === direction)?.hint}
      </p>
    </BuilderSection>
  );
}
