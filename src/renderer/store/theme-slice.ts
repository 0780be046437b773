import type { StateCreator } from 'zustand';
import type { AllSlices } from './types';

/** A colour theme as drawn. */
export type Theme = 'light' | 'dark';
/** What the person chose: follow the system, or a fixed theme. */
export type ThemePreference = 'system' | Theme;

/** The colour theme: the person's preference and the system's, and what follows from them. */
export interface ThemeSlice {
  /** The person's choice, persisted by lib/theme.ts. */
  themePreference: ThemePreference;
  /** What the operating system prefers right now. */
  systemTheme: Theme;
  /** The theme drawn: the preference, or the system theme when the preference is 'system'. */
  theme: Theme;
  /** Sets the preference. */
  setThemePreference: (preference: ThemePreference) => void;
  /** Switches to the other fixed theme. */
  toggleTheme: () => void;
  /** Called when the system preference changes. */
  setSystemTheme: (theme: Theme) => void;
}

/** The theme drawn for a preference. */
export function resolveTheme(preference: ThemePreference, systemTheme: Theme): Theme {
  return preference === 'system' ? systemTheme : preference;
}

/** Builds the slice from the stored preference and the system theme at start. */
export function createThemeSlice(
  initialPreference: ThemePreference,
  initialSystemTheme: Theme,
): StateCreator<AllSlices, [], [], ThemeSlice> {
  return (set, get) => ({
    themePreference: initialPreference,
    systemTheme: initialSystemTheme,
    theme: resolveTheme(initialPreference, initialSystemTheme),
    setThemePreference: (preference) =>
      set({ themePreference: preference, theme: resolveTheme(preference, get().systemTheme) }),
    toggleTheme: () => get().setThemePreference(get().theme === 'dark' ? 'light' : 'dark'),
    setSystemTheme: (systemTheme) =>
      set({ systemTheme, theme: resolveTheme(get().themePreference, systemTheme) }),
  });
}
