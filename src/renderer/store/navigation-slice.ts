import type { StateCreator } from 'zustand';
import { defaultSection, type SectionId } from '../sections';
import type { AllSlices } from './types';

/**
 * Which section is on screen. The location hash is the source of truth (lib/hash-route.ts
 * copies it here), so a reload or a shared link keeps the section.
 */
export interface NavigationSlice {
  /** The section on screen. */
  section: SectionId;
  /** Called when the hash changed; not a way to navigate (use `navigateTo`). */
  setSection: (section: SectionId) => void;
}

export const createNavigationSlice: StateCreator<AllSlices, [], [], NavigationSlice> = (set) => ({
  section: defaultSection,
  setSection: (section) => set({ section }),
});
