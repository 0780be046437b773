/**
 * The study shown under Runs lives in the location hash, `#/runs/<studyId>`, so a reload,
 * a reopened window or a shared link shows the same study (the engine holds everything else).
 */
import { useSyncExternalStore } from 'react';

const prefix = '#/runs/';

/** The study id a hash names, or null. */
export function studyIdFromHash(hash: string): string | null {
  if (!hash.startsWith(prefix)) return null;
  const id = hash.slice(prefix.length).split(/[/?]/)[0] ?? '';
  return id ? decodeURIComponent(id) : null;
}

/** The hash that shows a study. */
export function hashForStudy(studyId: string): string {
  return `${prefix}${encodeURIComponent(studyId)}`;
}

/** Shows a study under Runs. */
export function navigateToStudy(studyId: string): void {
  window.location.hash = hashForStudy(studyId);
}

/** The study the hash names now. */
export function currentStudyId(): string | null {
  return studyIdFromHash(window.location.hash);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The study the hash names, following changes. */
export function useSelectedStudyId(): string | null {
  return useSyncExternalStore(subscribe, currentStudyId);
}
