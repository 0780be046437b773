import { useEffect, useRef, useState } from 'react';
import { CUE_FAMILY_LIMITS } from '../../../shared/cue-family';
import type { CueSpec } from '../../../shared/cue-spec';
import { Chip } from '../../components/Chip';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';

type FamilyCue = Extract<CueSpec, { kind: 'family' }>;

function sameCue(a: CueSpec, b: FamilyCue): boolean {
  return (
    a.kind === 'family' &&
    a.family === b.family &&
    (a.template ?? 0) === (b.template ?? 0) &&
    Boolean(a.placebo) === Boolean(b.placebo)
  );
}

/**
 * Cue families (docs/CUE-FAMILIES.md): the registry's families, each a chip for its cue and
 * one for its placebo, with where it comes from and where it may go; a family file can be
 * imported here (it is validated by the engine and kept in the workspace).
 */
export function CueFamiliesPicker() {
  const registry = useLab((state) => state.cueFamilies);
  const otherCues = useLab((state) => state.draft.otherCues);
  const address = useLab((state) => state.address);
  const loadCueFamilies = useLab((state) => state.loadCueFamilies);
  const importCueFamily = useLab((state) => state.importCueFamily);
  const updateDraft = useLab((state) => state.updateDraft);
  const fileRef = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (address) void loadCueFamilies();
  }, [address, loadCueFamilies]);

  const listed = loadedValue(registry);
  const toggle = (cue: FamilyCue, on: boolean) =>
    updateDraft((draft) => ({
      otherCues: on
        ? [...draft.otherCues.filter((other) => !sameCue(other, cue)), cue]
        : draft.otherCues.filter((other) => !sameCue(other, cue)),
    }));

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > CUE_FAMILY_LIMITS.fileBytes) {
      setNotice({
        kind: 'error',
        text: `${file.name} is larger than 256 KB; nothing was imported.`,
      });
      return;
    }
    const error = await importCueFamily(await file.text(), file.name);
    setNotice(
      error ? { kind: 'error', text: error } : { kind: 'ok', text: `Imported ${file.name}.` },
    );
    if (fileRef.current) fileRef.current.value = '';
  };

  return (
    <>
      <h3 className="subheading">
        Cue families <span className="muted">({listed?.families.length ?? 0})</span>
      </h3>
      <p className="muted small">
        Each family is one bias, from its own file. Tick the cue, and its length-matched placebo to
        measure flips beyond it. A family runs only at the placements it allows.
      </p>
      <div className="family-list" role="group" aria-label="Cue families">
        {registry.state === 'failed' && <p className="banner banner-error">{registry.error}</p>}
        {(listed?.families ?? []).map(({ family, origin }) => {
          const cue: FamilyCue = { kind: 'family', family: family.id };
          const placebo: FamilyCue = { ...cue, placebo: true };
          return (
            <div key={family.id} className="family-row" data-family={family.id}>
              <div className="family-head">
                <Chip
                  ariaLabel={`family ${family.id}`}
                  title={family.description}
                  checked={otherCues.some((other) => sameCue(other, cue))}
                  onChange={(on) => toggle(cue, on)}
                >
                  {family.name}
                </Chip>
                <Chip
                  ariaLabel={`family ${family.id} placebo`}
                  title={family.templates.placebo[0]}
                  checked={otherCues.some((other) => sameCue(other, placebo))}
                  onChange={(on) => toggle(placebo, on)}
                >
                  placebo
                </Chip>
                {origin !== 'builtin' && <span className="family-origin">{origin}</span>}
              </div>
              <p className="family-meta muted small">
                {family.placements.join(' · ')}
                {family.simulatedShift === undefined
                  ? ''
                  : ` · synthetic judge: ${family.simulatedShift >= 0 ? '+' : ''}${family.simulatedShift} log-odds (hypothesis)`}
              </p>
              <p className="family-source muted small">{family.source}</p>
            </div>
          );
        })}
      </div>
      {(listed?.problems ?? []).map((problem) => (
        <p key={problem} className="banner banner-warning small family-problem">
          Refused: {problem}
        </p>
      ))}
      <div className="family-import">
        <label className="button button-small">
          Import a family file…
          <input
            ref={fileRef}
            type="file"
            accept=".json,.yaml,.yml"
            aria-label="Import a cue family file"
            hidden
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
        </label>
        {notice && (
          <p
            className={`banner ${notice.kind === 'error' ? 'banner-error' : 'banner-info'} small family-notice`}
            role={notice.kind === 'error' ? 'alert' : 'status'}
          >
            {notice.text}
          </p>
        )}
      </div>
    </>
  );
}
