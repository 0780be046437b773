/**
 * Commands as data: one registration list feeds the navigation, the keyboard shortcuts and
 * the shortcut hints (CONVENTIONS.md, "Commands as data"). Add a command here, not a handler.
 */
import type { StoreApi } from 'zustand';
import { navigateTo } from './lib/hash-route';
import { sections, type SectionId } from './sections';
import type { AllSlices } from './store/types';

/** A key chord: Ctrl (or Cmd on macOS) plus a physical key. */
export interface Shortcut {
  /** `KeyboardEvent.code` of the key, e.g. `Digit1`, `KeyL` (independent of layout). */
  code: string;
  /** The key as printed in hints, e.g. `1`, `L`. */
  key: string;
  /** Whether Shift is part of the chord. */
  shift: boolean;
}

/** Something a person can do from anywhere in the window. */
export interface Command {
  /** Stable identifier, e.g. `navigate.runs`. */
  id: string;
  /** What the command does, for menus and the palette. */
  label: string;
  /** The section a navigation command shows; navigation lists exactly these. */
  section?: SectionId;
  /** The chord that runs it. */
  shortcut?: Shortcut;
  /** Does it. */
  run: (store: StoreApi<AllSlices>) => void;
}

/** Every command, in the order menus list them. */
export const commands: readonly Command[] = [
  ...sections.map((section, index): Command => ({
    id: `navigate.${section.id}`,
    label: section.label,
    section: section.id,
    shortcut: { code: `Digit${index + 1}`, key: String(index + 1), shift: false },
    run: () => navigateTo(section.id),
  })),
  {
    id: 'view.toggleTheme',
    label: 'Toggle light and dark theme',
    shortcut: { code: 'KeyL', key: 'L', shift: true },
    run: (store) => store.getState().toggleTheme(),
  },
];

/** The commands that show a section, in navigation order. */
export const navigationCommands = commands.filter(
  (command): command is Command & { section: SectionId } => command.section !== undefined,
);

/** The command with this id. */
export function commandById(id: string): Command {
  const found = commands.find((command) => command.id === id);
  if (!found) throw new Error(`Unknown command ${id}`);
  return found;
}

/** The fields of a keyboard event a shortcut looks at. */
export interface KeyChord {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command whose shortcut this key event is, if any. */
export function commandForChord(chord: KeyChord): Command | undefined {
  if (!(chord.ctrlKey || chord.metaKey) || chord.altKey) return undefined;
  return commands.find(
    (command) => command.shortcut?.code === chord.code && command.shortcut.shift === chord.shiftKey,
  );
}

/** True on macOS, where the modifier is Cmd. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** A shortcut as printed in hints: `Ctrl+Shift+L`, or `⇧⌘L` on macOS. */
export function formatShortcut(shortcut: Shortcut, mac: boolean = isMac()): string {
  if (mac) return `${shortcut.shift ? '⇧' : ''}⌘${shortcut.key}`;
  return `Ctrl+${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
}

/** A shortcut in `aria-keyshortcuts` syntax, e.g. `Control+Shift+L`. */
export function ariaShortcut(shortcut: Shortcut, mac: boolean = isMac()): string {
  return `${mac ? 'Meta' : 'Control'}+${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
}
