import { ariaShortcut, commandById, formatShortcut } from '../commands';
import { labStore, useLab } from '../store';
import { MoonIcon, SunIcon } from './icons';

const toggleCommand = commandById('view.toggleTheme');

/** Switches between light and dark; the choice persists (Settings can go back to system). */
export function ThemeToggle() {
  const theme = useLab((state) => state.theme);
  const next = theme === 'dark' ? 'light' : 'dark';
  const shortcut = toggleCommand.shortcut;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme${shortcut ? ` (${formatShortcut(shortcut)})` : ''}`}
      aria-keyshortcuts={shortcut ? ariaShortcut(shortcut) : undefined}
      onClick={() => toggleCommand.run(labStore)}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
