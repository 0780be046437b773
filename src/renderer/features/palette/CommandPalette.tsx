/**
 * The command palette (Ctrl/Cmd+K): every command from commands.ts that applies in the section
 * on screen, filtered as you type, run with Enter. The same registration feeds the navigation
 * and the shortcuts, so a command added there shows up here without more code.
 */
import { useState, type KeyboardEvent } from 'react';
import type { Command, Shortcut } from '../../commands';
import { sectionFromHash } from '../../sections';
import { labStore } from '../../store';
import './palette.css';

/** True when every word of the query appears in the label. */
export function matchesQuery(label: string, query: string): boolean {
  const haystack = label.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** What the palette lists and how it prints a shortcut (passed in, so it never imports them). */
export interface PaletteSource {
  commands: readonly Command[];
  formatShortcut: (shortcut: Shortcut) => string;
}

function available(commands: readonly Command[]): Command[] {
  const section = sectionFromHash(window.location.hash);
  return commands.filter(
    (command) =>
      command.id !== 'view.commandPalette' && (!command.scope || command.scope === section),
  );
}

/** The palette; `onClose` unmounts it. */
export function CommandPalette({
  source,
  onClose,
}: {
  source: PaletteSource;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [all] = useState(() => available(source.commands));
  const shown = all.filter((command) => matchesQuery(command.label, query));
  const current = Math.min(active, Math.max(0, shown.length - 1));

  const run = (command: Command | undefined) => {
    if (!command) return;
    onClose();
    command.run(labStore);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onClose();
    else if (event.key === 'ArrowDown') setActive((current + 1) % Math.max(1, shown.length));
    else if (event.key === 'ArrowUp')
      setActive((current - 1 + shown.length) % Math.max(1, shown.length));
    else if (event.key === 'Enter') run(shown[current]);
    else return;
    event.preventDefault();
  };

  return (
    <div className="palette-backdrop" onMouseDown={onClose}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <input
          autoFocus
          className="palette-input"
          placeholder="Type a command…"
          value={query}
          aria-controls="palette-list"
          aria-activedescendant={shown[current] ? `palette-${shown[current].id}` : undefined}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" id="palette-list" role="listbox">
          {shown.map((command, index) => (
            <li
              key={command.id}
              id={`palette-${command.id}`}
              role="option"
              aria-selected={index === current}
              className={index === current ? 'palette-item palette-active' : 'palette-item'}
              onMouseEnter={() => setActive(index)}
              onClick={() => run(command)}
            >
              <span>{command.label}</span>
              {command.shortcut && <kbd>{source.formatShortcut(command.shortcut)}</kbd>}
            </li>
          ))}
          {shown.length === 0 && <li className="palette-empty">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}
