/**
 * The location hash drives navigation: links are plain `#/<section>` anchors, shortcuts set
 * the hash, and the store follows it. A reload or a shared link therefore keeps the section.
 */
import type { StoreApi } from 'zustand';
import { hashForSection, sectionFromHash, type SectionId } from '../sections';
import type { AllSlices } from '../store/types';

/** Shows a section by changing the hash (the store follows through `installHashRoute`). */
export function navigateTo(section: SectionId): void {
  window.location.hash = hashForSection(section);
}

/** Copies the hash into the store now and on every change; returns a function that stops. */
export function installHashRoute(store: StoreApi<AllSlices>): () => void {
  const sync = () => store.getState().setSection(sectionFromHash(window.location.hash));
  sync();
  window.addEventListener('hashchange', sync);
  return () => window.removeEventListener('hashchange', sync);
}
