import type { StoreApi } from 'zustand';
import { commandForChord } from '../commands';
import type { AllSlices } from '../store/types';

/** Runs commands from their key chords anywhere in the window; returns a function that stops. */
export function installShortcuts(store: StoreApi<AllSlices>): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.repeat) return;
    const command = commandForChord(event);
    if (!command) return;
    event.preventDefault();
    command.run(store);
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
}
