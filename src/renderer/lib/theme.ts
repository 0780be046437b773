/**
 * Applies the theme to `<html data-theme>` and keeps the person's choice in localStorage.
 * With no stored choice the lab follows the system preference, live.
 */
import type { StoreApi } from 'zustand';
import type { AllSlices } from '../store/types';
import type { Theme, ThemePreference } from '../store/theme-slice';

const storageKey = 'cuelab.theme';
const darkQuery = '(prefers-color-scheme: dark)';

/** The stored preference, or 'system' when none (or storage is unavailable). */
export function readStoredThemePreference(): ThemePreference {
  try {
    const stored = window.localStorage.getItem(storageKey);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** What the operating system prefers right now. */
export function readSystemTheme(): Theme {
  return window.matchMedia(darkQuery).matches ? 'dark' : 'light';
}

function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

function storePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') window.localStorage.removeItem(storageKey);
    else window.localStorage.setItem(storageKey, preference);
  } catch {
    // Storage can be disabled; the choice then lasts for this page only.
  }
}

/** Draws the current theme and follows changes; returns a function that stops following. */
export function installTheme(store: StoreApi<AllSlices>): () => void {
  applyTheme(store.getState().theme);
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.theme !== previous.theme) applyTheme(state.theme);
    if (state.themePreference !== previous.themePreference) {
      storePreference(state.themePreference);
    }
  });
  const media = window.matchMedia(darkQuery);
  const onSystemChange = (event: MediaQueryListEvent) =>
    store.getState().setSystemTheme(event.matches ? 'dark' : 'light');
  media.addEventListener('change', onSystemChange);
  return () => {
    unsubscribe();
    media.removeEventListener('change', onSystemChange);
  };
}
