import { useId } from 'react';
import { labStore, useLab } from '../../store';
import type { ThemePreference } from '../../store/theme-slice';

const choices: { value: ThemePreference; label: string }[] = [
  { value: 'system', label: 'Match the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The theme choice: follow the system, or a fixed light or dark theme. */
export function AppearancePanel() {
  const headingId = useId();
  const preference = useLab((state) => state.themePreference);
  const systemTheme = useLab((state) => state.systemTheme);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Appearance</h2>
      <fieldset className="choice-group">
        <legend>Theme</legend>
        {choices.map((choice) => (
          <label key={choice.value} className="choice">
            <input
              type="radio"
              name="theme"
              value={choice.value}
              checked={preference === choice.value}
              onChange={() => labStore.getState().setThemePreference(choice.value)}
            />
            {choice.label}
            {choice.value === 'system' && <span className="muted"> (now {systemTheme})</span>}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
