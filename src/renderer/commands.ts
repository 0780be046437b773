/**
 * Commands as data: one registration list feeds the navigation, the keyboard shortcuts and
 * the shortcut hints (CONVENTIONS.md, "Commands as data"). Add a command here, not a handler.
 */
import type { StoreApi } from 'zustand';
import {
  launchFromBuilder,
  newDesign,
  openSpec,
  saveDraftSpec,
} from './features/builder/builder-actions';
import { selectAdjacentStudy, togglePauseSelected } from './features/runs/runs-actions';
import { toggleCommandPalette } from './features/palette/open-palette';
import { navigateTo } from './lib/hash-route';
import { sectionFromHash, sections, type SectionId } from './sections';
import type { AllSlices } from './store/types';

/** A key chord: Ctrl (or Cmd on macOS) plus a physical key, or a bare key. */
export interface Shortcut {
  /** `KeyboardEvent.code` of the key, e.g. `Digit1`, `KeyL` (independent of layout). */
  code: string;
  /** The key as printed in hints, e.g. `1`, `L`. */
  key: string;
  /** Whether Shift is part of the chord. */
  shift: boolean;
  /** A bare key without Ctrl/Cmd (e.g. `P`); it never fires while the person types in a field. */
  bare?: boolean;
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
  /** The section the command acts in; elsewhere its shortcut does nothing. */
  scope?: SectionId;
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
  {
    id: 'view.commandPalette',
    label: 'Show all commands',
    shortcut: { code: 'KeyK', key: 'K', shift: false },
    run: () =>
      toggleCommandPalette({ commands, formatShortcut: (shortcut) => formatShortcut(shortcut) }),
  },
  {
    id: 'results.refresh',
    label: 'Refresh the results',
    scope: 'results',
    run: (store) => void store.getState().loadResultTables(),
  },
  {
    id: 'settings.buildBaseImage',
    label: 'Build the Docker base image',
    run: (store) => {
      navigateTo('settings');
      void store.getState().startBootstrap();
    },
  },
  {
    id: 'builder.launch',
    label: 'Launch the study',
    scope: 'builder',
    shortcut: { code: 'Enter', key: 'Enter', shift: false },
    run: (store) => void launchFromBuilder(store),
  },
  {
    id: 'builder.saveSpec',
    label: 'Save the study spec',
    scope: 'builder',
    shortcut: { code: 'KeyS', key: 'S', shift: false },
    run: (store) => void saveDraftSpec(store),
  },
  {
    id: 'builder.openSpec',
    label: 'Open a study spec',
    scope: 'builder',
    shortcut: { code: 'KeyO', key: 'O', shift: false },
    run: (store) => void openSpec(store),
  },
  {
    id: 'builder.new',
    label: 'Start a new design',
    scope: 'builder',
    run: (store) => newDesign(store),
  },
  ...[1, 2, 3].map((key): Command => ({
    id: `annotate.label${key}`,
    label: `Pick mechanism ${key}`,
    scope: 'annotate',
    shortcut: { code: `Digit${key}`, key: String(key), shift: false, bare: true },
    run: (store) => store.getState().pickAnnotateLabel(key - 1),
  })),
  {
    id: 'annotate.subMode',
    label: 'Toggle the over-trust sub-mode',
    scope: 'annotate',
    shortcut: { code: 'KeyS', key: 'S', shift: false, bare: true },
    run: (store) => store.getState().cycleAnnotateSubMode(),
  },
  {
    id: 'annotate.save',
    label: 'Save the label and show the next flip',
    scope: 'annotate',
    shortcut: { code: 'Enter', key: 'Enter', shift: false, bare: true },
    run: (store) => void store.getState().saveAnnotateLabel(),
  },
  {
    id: 'runs.togglePause',
    label: 'Pause or resume the study',
    scope: 'runs',
    shortcut: { code: 'KeyP', key: 'P', shift: false, bare: true },
    run: (store) => void togglePauseSelected(store),
  },
  {
    id: 'runs.next',
    label: 'Show the next study',
    scope: 'runs',
    shortcut: { code: 'KeyJ', key: 'J', shift: false, bare: true },
    run: (store) => selectAdjacentStudy(store, 1),
  },
  {
    id: 'runs.previous',
    label: 'Show the previous study',
    scope: 'runs',
    shortcut: { code: 'KeyK', key: 'K', shift: false, bare: true },
    run: (store) => selectAdjacentStudy(store, -1),
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
  /** Where the key was pressed; bare keys are ignored in text fields. */
  target?: EventTarget | null;
}

const nonTextInputs = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'file']);

/** True when a key press there is typing (a text field, a select, editable content). */
function isTyping(target: EventTarget | null | undefined): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') {
    return true;
  }
  return target instanceof HTMLInputElement && !nonTextInputs.has(target.type);
}

/** The command whose shortcut this key event is, if any, in the section on screen. */
export function commandForChord(chord: KeyChord): Command | undefined {
  if (chord.altKey) return undefined;
  const modifier = chord.ctrlKey || chord.metaKey;
  if (!modifier && isTyping(chord.target)) return undefined;
  const section = sectionFromHash(window.location.hash);
  return commands.find(
    (command) =>
      command.shortcut?.code === chord.code &&
      command.shortcut.shift === chord.shiftKey &&
      Boolean(command.shortcut.bare) === !modifier &&
      (command.scope === undefined || command.scope === section),
  );
}

/** True on macOS, where the modifier is Cmd. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** A shortcut as printed in hints: `Ctrl+Shift+L`, or `⇧⌘L` on macOS; a bare key as `P`. */
export function formatShortcut(shortcut: Shortcut, mac: boolean = isMac()): string {
  if (shortcut.bare) return `${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
  if (mac) return `${shortcut.shift ? '⇧' : ''}⌘${shortcut.key}`;
  return `Ctrl+${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
}

/** A shortcut in `aria-keyshortcuts` syntax, e.g. `Control+Shift+L`. */
export function ariaShortcut(shortcut: Shortcut, mac: boolean = isMac()): string {
  if (shortcut.bare) return `${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
  return `${mac ? 'Meta' : 'Control'}+${shortcut.shift ? 'Shift+' : ''}${shortcut.key}`;
}
